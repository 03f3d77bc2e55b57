/**
 * Every cached post read (feed pages `['/api/posts', 'feed', ...]` and post details
 * `['/api/posts', id]`) starts with '/api/posts': spec §4 discards them all after a post is
 * created or deleted. (SWR hands a filter the key as it was given, the array; the feed's
 * infinite-list entry is not offered to filters, and the feed forgets it on unmount.)
 */
export const isPostKey = (key: unknown) => Array.isArray(key) && key[0] === '/api/posts';
