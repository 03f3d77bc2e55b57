import { useEffect, useRef, useState } from 'react';
import { callRoutes, type Comment, type CommentPage, type PostDetail } from '@campus/contracts';
import { callApi } from '@campus/kit/api';

/** `GET /api/posts/{id}/comments?cursor=`: the page of comments after `cursor`. */
export function fetchCommentPage(postId: number, cursor: string): Promise<CommentPage> {
  return callApi(callRoutes.commentPage, { params: { id: postId }, query: { cursor } });
}

/**
 * The post's comments: the first page (in the detail) and the pages loaded since with
 * `loadMore()`. When the detail is read again (a comment or reply posted), the pages loaded so far
 * are read again after it, so the thread stays as long and shows what was posted.
 */
export function useMoreComments(post: Pick<PostDetail, 'id' | 'comments' | 'commentsNextCursor'>) {
  const [extra, setExtra] = useState<Comment[]>([]);
  const [cursor, setCursor] = useState<string | null>(post.commentsNextCursor ?? null);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  /** How many pages were loaded after the first. */
  const pagesRef = useRef(0);

  const load = async (from: string | null, count: number) => {
    const comments: Comment[] = [];
    let next = from;
    for (let i = 0; i < count && next; i++) {
      const page = await fetchCommentPage(post.id, next);
      comments.push(...page.comments);
      next = page.nextCursor;
    }
    return { comments, next };
  };

  // The detail was read again: its first page is new, and so is what follows it.
  useEffect(() => {
    let current = true;
    const count = pagesRef.current;
    if (count === 0) {
      setCursor(post.commentsNextCursor ?? null);
      return;
    }
    load(post.commentsNextCursor ?? null, count).then(
      ({ comments, next }) => {
        if (!current) return;
        setExtra(comments);
        setCursor(next);
      },
      () => undefined, // the comments already shown stay
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [post.id, post.comments, post.commentsNextCursor]);

  const loadMore = async () => {
    if (!cursor || loading) return;
    setLoading(true);
    setFailed(false);
    try {
      const { comments, next } = await load(cursor, 1);
      setExtra((shown) => [...shown, ...comments]);
      setCursor(next);
      pagesRef.current += 1;
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  };

  const seen = new Set<number>();
  const comments = [...post.comments, ...extra].filter((c) =>
    seen.has(c.id) ? false : (seen.add(c.id), true),
  );
  return { comments, hasMore: cursor !== null, loading, failed, loadMore };
}
