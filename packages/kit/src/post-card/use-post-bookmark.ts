import { useCallback, useRef, useState } from 'react';
import type { BookmarkResponse } from '@campus/contracts';
import { failureDescription } from '@campus/kit/api';
import { toast } from '@campus/kit/toast';
import { setPostBookmark } from './post-requests';

export interface UsePostBookmarkOptions {
  /** After the server confirmed the change (a Bookmarks page drops a post here). */
  onSettled?: (result: BookmarkResponse) => void;
}

/**
 * A bookmark toggle (issue 40) that answers at once and settles on the server's `bookmarked`; on
 * failure it rolls back and shows the destructive toast. When the post given changes (fresh data
 * from the server), the shown state follows it. Bookmarks are private: there is no count.
 */
export function usePostBookmark(
  post: { id: number; isBookmarked?: boolean },
  { onSettled }: UsePostBookmarkOptions = {},
) {
  const fromProps = post.isBookmarked === true;
  const [source, setSource] = useState(fromProps);
  const [bookmarked, setBookmarked] = useState(fromProps);
  const [pending, setPending] = useState(false);
  const inFlight = useRef(false);

  if (source !== fromProps) {
    setSource(fromProps);
    setBookmarked(fromProps);
  }

  const toggle = useCallback(async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setPending(true);
    const before = bookmarked;
    setBookmarked(!before);
    try {
      const result = await setPostBookmark(post.id, !before);
      setBookmarked(result.bookmarked);
      onSettled?.(result);
    } catch (error) {
      setBookmarked(before);
      toast({
        title: 'Error',
        description: failureDescription(error, 'Failed to update bookmark. Please try again.'),
        variant: 'destructive',
      });
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  }, [bookmarked, post.id, onSettled]);

  return { bookmarked, pending, toggle };
}
