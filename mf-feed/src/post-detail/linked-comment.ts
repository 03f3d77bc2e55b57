import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import type { Comment } from '@campus/contracts';

/**
 * How many further pages of a thread the page reads looking for a linked comment before it says
 * the comment is not there (a comment notification names one comment of a long thread).
 */
export const LINKED_COMMENT_PAGES = 10;

/** The comment a `#comment-<id>` link points at (a comment notification's link), or null. */
export function linkedCommentId(hash: string): number | null {
  const match = /^#comment-([1-9]\d*)$/.exec(hash);
  return match ? Number(match[1]) : null;
}

function holds(comments: readonly Comment[], id: number): boolean {
  return comments.some(
    (comment) => comment.id === id || (comment.replies ?? []).some((reply) => reply.id === id),
  );
}

interface Thread {
  comments: Comment[];
  hasMore: boolean;
  loading: boolean;
  failed: boolean;
  loadMore: () => Promise<void>;
}

/**
 * The post page opened from `/post/<id>#comment-<commentId>` (issue 41): the comment (or reply)
 * is looked for in the thread, reading further pages when it is not in the first, then scrolled
 * to the middle of the screen and focused once, and `highlightedId` names it for its highlight.
 * `missing`: the thread was read to its end without it (the comment was deleted, or its author
 * is muted or blocked).
 */
export function useLinkedComment(thread: Thread): {
  highlightedId: number | null;
  missing: boolean;
} {
  const { hash } = useLocation();
  const id = linkedCommentId(hash);
  const found = id !== null && holds(thread.comments, id);
  const pagesRead = useRef(0);
  const shownId = useRef<number | null>(null);
  const loadMore = useRef(thread.loadMore);
  useEffect(() => {
    loadMore.current = thread.loadMore;
  });

  const looking = id !== null && !found && thread.hasMore && !thread.failed;
  useEffect(() => {
    // Past the pages it reads on its own, the thread's 'Load more comments' is the reader's.
    if (!looking || thread.loading || pagesRead.current >= LINKED_COMMENT_PAGES) return;
    pagesRead.current += 1;
    void loadMore.current();
  }, [looking, thread.loading]);

  useEffect(() => {
    if (!found || shownId.current === id) return;
    shownId.current = id;
    const element = document.getElementById(`comment-${id}`);
    element?.scrollIntoView?.({ block: 'center' });
    element?.focus({ preventScroll: true });
  }, [found, id]);

  return {
    highlightedId: found ? id : null,
    missing: id !== null && !found && !looking && !thread.loading,
  };
}
