import { trusted } from 'mongoose';
import type { Comment as CommentView, PostAuthor } from '@campus/contracts';
import type { AppContext } from '../../context';
import { likedComments } from '../likes/queries';
import { presentMentions } from '../mentions/stored';
import { viewerSafety } from '../safety/relations';
import { toAuthor } from '../users/presenters';
import { commentsOf, type CommentDoc } from './model';
import type { StoredCommentPage } from './page-cache';
import { visibleComments } from './queries';

/** Top-level comments per page (their replies come with them). */
export const COMMENTS_PAGE = 20;

/** Where a page of comments ends: the last top-level comment's creation time and id. */
export interface CommentCursor {
  createdAt: Date;
  id: number;
}

export function encodeCommentCursor(c: Pick<CommentDoc, 'createdAt' | '_id'>): string {
  return `${c.createdAt.getTime()}.${c._id}`;
}

/** The cursor a page answered as `nextCursor`, or undefined when `text` is not one. */
export function decodeCommentCursor(text: string): CommentCursor | undefined {
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(text);
  if (!match) return undefined;
  const createdAt = new Date(Number(match[1]));
  const id = Number(match[2]);
  return Number.isSafeInteger(id) && !Number.isNaN(createdAt.getTime())
    ? { createdAt, id }
    : undefined;
}

/**
 * One page of a post's comments, oldest first: up to `limit` top-level comments (after `cursor`,
 * the `nextCursor` of the page before) each with all its replies (one level). Uncached, four
 * database round trips: the top-level comments, their replies (`readPage`), then authors and the
 * viewer's comment likes in parallel; with the app's caches (`reads.comments`, the author
 * cache) a page read again takes none. `nextCursor` is null on the last page.
 */
export async function listComments(
  ctx: AppContext,
  postId: number,
  viewerId: number,
  page: { cursor?: CommentCursor; limit?: number } = {},
): Promise<{ comments: CommentView[]; nextCursor: string | null }> {
  const { publicUrl } = ctx.config;
  const { authors: authorCache, comments: cache } = ctx.caches;
  const limit = page.limit ?? COMMENTS_PAGE;
  const load = async () => readPage(ctx, postId, page.cursor, limit);
  const cursor = page.cursor
    ? encodeCommentCursor({ createdAt: page.cursor.createdAt, _id: page.cursor.id })
    : '';
  const stored = await cache.page(postId, `${cursor}|${limit}`, load);
  const { nextCursor } = stored;
  // Members blocked either way are not seen: their comments (with the replies under them) and
  // their replies are left out of the viewer's page (the page kept for everyone is not changed),
  // under a "deleted" placeholder too; a placeholder left with no reply the viewer sees goes with
  // them (it stands only for its replies' context).
  const safety = await viewerSafety(ctx, viewerId);
  const seen = (c: CommentDoc) => !safety.blocks(c.authorId);
  const replies = safety.empty ? stored.replies : stored.replies.filter(seen);
  const answered = new Set(replies.map((c) => c.parentId));
  const top = safety.empty
    ? stored.top
    : stored.top.filter((c) => seen(c) && (!c.withdrawnAt || answered.has(c._id)));
  if (top.length === 0) return { comments: [], nextCursor: stored.top.length ? nextCursor : null };
  const comments = [...top, ...replies];
  // A comment with no likes has none by this viewer: a like and the comment's count are written
  // in one transaction, and its event forgets the comment's kept page. Most have none.
  const commentIds = comments.filter((c) => c.likesCount !== 0).map((c) => c._id);
  const [authors, liked] = await Promise.all([
    authorCache.byId(comments.map((c) => c.authorId)),
    commentIds.length === 0
      ? new Set<number>()
      : cache.likedComments(viewerId, commentIds, (ids) => likedComments(ctx, viewerId, ids)),
  ]);
  const present = (c: CommentDoc): CommentView =>
    presentComment(c, toAuthor(c.authorId, authors.get(c.authorId), publicUrl), liked.has(c._id));
  const topLevel = new Map<number, CommentView & { replies: CommentView[] }>();
  for (const c of top) topLevel.set(c._id, { ...present(c), replies: [] });
  for (const c of replies) topLevel.get(c.parentId!)?.replies.push(present(c));
  return { comments: [...topLevel.values()], nextCursor };
}

/**
 * A stored comment as clients see it (without replies). `editedAt` only once edited. A "deleted"
 * placeholder shows no text, likes or edit time: only where it was, above its replies.
 */
export function presentComment(
  c: Pick<
    CommentDoc,
    '_id' | 'content' | 'createdAt' | 'likesCount' | 'editedAt' | 'withdrawnAt' | 'mentions'
  >,
  author: PostAuthor,
  isLiked: boolean,
): CommentView {
  if (c.withdrawnAt) {
    return {
      id: c._id,
      content: '',
      createdAt: c.createdAt.toISOString(),
      author,
      likesCount: 0,
      isLiked: false,
      deleted: true,
    };
  }
  return {
    id: c._id,
    content: c.content,
    createdAt: c.createdAt.toISOString(),
    author,
    likesCount: c.likesCount,
    isLiked,
    ...(c.editedAt ? { editedAt: c.editedAt.toISOString() } : {}),
    ...(c.mentions?.length ? { mentions: presentMentions(c.mentions) } : {}),
  };
}

/**
 * One page of stored comments, in two round trips, each answered from the index
 * `{ postId, parentId, createdAt, _id }` by reading only the page: the top-level comments after
 * the cursor (in index order, stopping after `limit` + 1), then their replies.
 */
export async function readPage(
  ctx: AppContext,
  postId: number,
  after: CommentCursor | undefined,
  limit: number,
): Promise<StoredCommentPage> {
  // Removed comments (and so their replies) and those of suspended authors are hidden.
  const top = await commentsOf(ctx)
    .find({
      postId,
      parentId: null,
      ...visibleComments(),
      ...(after
        ? {
            // The range lets the index start at the cursor; the $or makes it exact.
            createdAt: trusted({ $gte: after.createdAt }),
            $or: [
              { createdAt: trusted({ $gt: after.createdAt }) },
              { createdAt: after.createdAt, _id: trusted({ $gt: after.id }) },
            ],
          }
        : {}),
    })
    .sort({ createdAt: 1, _id: 1 })
    .limit(limit + 1)
    .lean<CommentDoc[]>();
  const more = top.length > limit;
  if (more) top.length = limit;
  if (top.length === 0) return { top, replies: [], nextCursor: null };
  const replies = await commentsOf(ctx)
    .find({
      postId,
      parentId: trusted({ $in: top.map((c) => c._id) }),
      ...visibleComments(),
    })
    .sort({ createdAt: 1, _id: 1 })
    .lean<CommentDoc[]>();
  const nextCursor = more ? encodeCommentCursor(top[top.length - 1]!) : null;
  return { top, replies, nextCursor };
}
