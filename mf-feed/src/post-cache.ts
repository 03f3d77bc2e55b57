/**
 * Every cached post read (feed pages `['/api/posts', 'feed', ...]` and post details
 * `['/api/posts', id]`) starts with '/api/posts': spec §4 discards them all after a post is
 * created or deleted.
 */
export const isPostKey = (key: unknown) =>
  (Array.isArray(key) && key[0] === '/api/posts') ||
  (typeof key === 'string' && key.includes('/api/posts'));
