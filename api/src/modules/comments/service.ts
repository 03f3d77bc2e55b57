import { trusted } from 'mongoose';
import type { Comment as CommentView } from '@campus/contracts';
import type { DomainEvent } from '../../domain-events';
import { notFound } from '../../platform/errors';
import type { Transactions } from '../../platform/transactions';
import type { CounterService } from '../counters/service';
import { countedLikes, type LikeResult, type LikeService } from '../likes/service';
import type { AuthorCache } from '../users/author-cache';
import { toAuthor } from '../users/presenters';
import type { CommentDoc, CommentModel } from './model';
import type { CommentPageCache, StoredCommentPage } from './page-cache';

export const COMMENT_NOT_FOUND = 'Comment not found';

/** What presenting comments needs: the base of absolute avatar URLs and the app's author cache. */
export interface CommentReads {
  publicUrl: string;
  authors: AuthorCache;
  /** The app's comment pages and viewers' comment likes (read-caches.ts); none kept without it. */
  comments?: CommentPageCache;
}

export interface CommentServiceDeps {
  models: { Comment: CommentModel };
  counters: CounterService;
  likes: LikeService;
  writes: Pick<Transactions<DomainEvent>, 'publish'>;
}

/** Comments every reader may see: not removed, and not by a suspended author. */
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

function visible() {
  return { deletedAt: null, authorSuspended: trusted({ $ne: true }) };
}

export function createCommentService({
  models: { Comment },
  counters,
  likes,
  writes: { publish },
}: CommentServiceDeps) {
  const { nextIdOfBlock } = counters;
  const { likedComments, toggleLike } = likes;

  /**
   * One page of a post's comments, oldest first: up to `limit` top-level comments (after `cursor`,
   * the `nextCursor` of the page before) each with all its replies (one level). Uncached, four
   * database round trips: the top-level comments, their replies (`readPage`), then authors and the
   * viewer's comment likes in parallel; with the app's caches (`reads.comments`, the author
   * cache) a page read again takes none. `nextCursor` is null on the last page.
   */
  async function listComments(
    postId: number,
    viewerId: number,
    { publicUrl, authors: authorCache, comments: cache }: CommentReads,
    page: { cursor?: CommentCursor; limit?: number } = {},
  ): Promise<{ comments: CommentView[]; nextCursor: string | null }> {
    const limit = page.limit ?? COMMENTS_PAGE;
    const load = async () => readPage(postId, page.cursor, limit);
    const { top, replies, nextCursor } = cache
      ? await cache.page(
          postId,
          `${page.cursor ? encodeCommentCursor({ createdAt: page.cursor.createdAt, _id: page.cursor.id }) : ''}|${limit}`,
          load,
        )
      : await load();
    if (top.length === 0) return { comments: [], nextCursor: null };
    const comments = [...top, ...replies];
    // A comment with no likes has none by this viewer: a like and the comment's count are written
    // in one transaction, and its event forgets the comment's kept page. Most have none.
    const commentIds = comments.filter((c) => c.likesCount !== 0).map((c) => c._id);
    const [authors, liked] = await Promise.all([
      authorCache.byId(comments.map((c) => c.authorId)),
      commentIds.length === 0
        ? new Set<number>()
        : cache
          ? cache.likedComments(viewerId, commentIds, (ids) => likedComments(viewerId, ids))
          : likedComments(viewerId, commentIds),
    ]);
    const present = (c: CommentDoc): CommentView => ({
      id: c._id,
      content: c.content,
      createdAt: c.createdAt.toISOString(),
      author: toAuthor(c.authorId, authors.get(c.authorId), publicUrl),
      likesCount: c.likesCount,
      isLiked: liked.has(c._id),
    });
    const topLevel = new Map<number, CommentView & { replies: CommentView[] }>();
    for (const c of top) topLevel.set(c._id, { ...present(c), replies: [] });
    for (const c of replies) topLevel.get(c.parentId!)?.replies.push(present(c));
    return { comments: [...topLevel.values()], nextCursor };
  }

  /**
   * One page of stored comments, in two round trips, each answered from the index
   * `{ postId, parentId, createdAt, _id }` by reading only the page: the top-level comments after
   * the cursor (in index order, stopping after `limit` + 1), then their replies.
   */
  async function readPage(
    postId: number,
    after: CommentCursor | undefined,
    limit: number,
  ): Promise<StoredCommentPage> {
    // Removed comments (and so their replies) and those of suspended authors are hidden.
    const top = await Comment.find({
      postId,
      parentId: null,
      ...visible(),
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
    const replies = await Comment.find({
      postId,
      parentId: trusted({ $in: top.map((c) => c._id) }),
      ...visible(),
    })
      .sort({ createdAt: 1, _id: 1 })
      .lean<CommentDoc[]>();
    const nextCursor = more ? encodeCommentCursor(top[top.length - 1]!) : null;
    return { top, replies, nextCursor };
  }

  /**
   * Stores a comment or a reply under `postId` (which the caller has checked is visible), in the
   * caller's transaction (which moves the post's count). A reply to a reply attaches to the
   * top-level comment (one level). Returns the comment as clients see it and, for a reply, the
   * author of the comment replied to.
   */
  async function createComment(
    authorId: number,
    postId: number,
    input: { content: string; parentId?: number },
    reads: CommentReads,
  ): Promise<{ comment: CommentView; repliedToAuthorId: number | null }> {
    let parent: Pick<CommentDoc, '_id' | 'parentId' | 'authorId'> | null = null;
    if (input.parentId !== undefined) {
      parent = await Comment.findOne(
        { _id: input.parentId, postId, deletedAt: null },
        { parentId: 1, authorId: 1 },
      ).lean();
      if (!parent) throw notFound(COMMENT_NOT_FOUND);
      if (parent.parentId !== null) {
        parent = await Comment.findById(parent.parentId, { parentId: 1, authorId: 1 }).lean();
        if (!parent) throw notFound(COMMENT_NOT_FOUND);
      }
    }
    const comment = await Comment.create({
      _id: await nextIdOfBlock('comments'),
      postId,
      authorId,
      parentId: parent?._id ?? null,
      content: input.content,
    });
    publish({
      type: 'comment.created',
      commentId: comment._id,
      postId,
      authorId,
      parentId: comment.parentId,
    });
    const authors = await reads.authors.byId([authorId]);
    return {
      comment: {
        id: comment._id,
        content: comment.content,
        createdAt: comment.createdAt.toISOString(),
        author: toAuthor(authorId, authors.get(authorId), reads.publicUrl),
        likesCount: 0,
        isLiked: false,
        replies: [],
      },
      repliedToAuthorId: parent?.authorId ?? null,
    };
  }

  /**
   * Likes or unlikes a comment. A comment under a deleted post is "not found": whether a post is
   * visible is the posts module's to say, so the app hands `isPostVisible` in.
   */
  async function toggleCommentLike(
    userId: number,
    commentId: number,
    isPostVisible: (postId: number) => Promise<boolean>,
  ): Promise<LikeResult> {
    const comment = await Comment.findOne({ _id: commentId, ...visible() }, { postId: 1 }).lean();
    if (!comment || !(await isPostVisible(comment.postId))) throw notFound(COMMENT_NOT_FOUND);
    const { postId } = comment;
    const counter = countedLikes(Comment, commentId, {
      event: (liked) => ({
        type: liked ? 'comment.liked' : 'comment.unliked',
        commentId,
        postId,
        userId,
      }),
    });
    const { liked, likesCount } = await toggleLike(
      userId,
      { kind: 'comment', id: commentId },
      counter,
    );
    return { liked, likesCount };
  }

  /** How many comments each post has, counted from the comments themselves. */
  async function countCommentsPerPost(): Promise<Map<number, number>> {
    const rows = await Comment.aggregate<{ _id: number; n: number }>([
      { $match: { deletedAt: null } },
      { $group: { _id: '$postId', n: { $sum: 1 } } },
    ]);
    return new Map(rows.map((r) => [r._id, r.n]));
  }

  /** Every comment's stored likesCount (to check it against the likes). */
  async function storedCommentLikeCounts(): Promise<Map<number, number>> {
    const rows = await Comment.find({}, { likesCount: 1 }).lean();
    return new Map(rows.map((c) => [c._id, c.likesCount]));
  }

  function countAllComments(): Promise<number> {
    return Comment.estimatedDocumentCount();
  }

  /** How many comments each of these posts has. */
  async function countCommentsOn(postIds: number[]): Promise<Map<number, number>> {
    if (postIds.length === 0) return new Map();
    const rows = await Comment.aggregate<{ _id: number; n: number }>([
      { $match: { postId: { $in: postIds }, deletedAt: null } },
      { $group: { _id: '$postId', n: { $sum: 1 } } },
    ]);
    return new Map(rows.map((r) => [r._id, r.n]));
  }

  /**
   * Account deletion: removes the member's comments, every comment on the given posts (theirs,
   * going too) and the replies to all of these. Answers the removed comments and the posts they
   * were on (whose counts the caller recounts).
   */
  async function removeCommentsOf(
    userId: number,
    postIds: number[],
  ): Promise<{ commentIds: number[]; postIds: number[] }> {
    const direct = await Comment.find(
      postIds.length > 0
        ? { $or: [{ authorId: userId }, { postId: trusted({ $in: postIds }) }] }
        : { authorId: userId },
      { postId: 1 },
    ).lean();
    const replies =
      direct.length > 0
        ? await Comment.find(
            { parentId: trusted({ $in: direct.map((c) => c._id) }) },
            { postId: 1 },
          ).lean()
        : [];
    const removed = [...direct, ...replies];
    const commentIds = [...new Set(removed.map((c) => c._id))];
    if (commentIds.length > 0) await Comment.deleteMany({ _id: trusted({ $in: commentIds }) });
    return { commentIds, postIds: [...new Set(removed.map((c) => c.postId))] };
  }

  /** Sets these comments' likesCount to their likes, counted. */
  async function recountCommentLikes(commentIds: number[]): Promise<void> {
    const ids = [...new Set(commentIds)];
    if (ids.length === 0) return;
    const counts = await likes.countLikesOn('comment', ids);
    await Comment.bulkWrite(
      ids.map((id) => ({
        updateOne: { filter: { _id: id }, update: { $set: { likesCount: counts.get(id) ?? 0 } } },
      })),
    );
  }

  /**
   * Moderation: hides every comment of a suspended author, or shows them again on reactivation
   * (in the suspension's transaction, told by its event). Counts stay: the comments are hidden,
   * not removed.
   */
  async function setAuthorHidden(authorId: number, hidden: boolean): Promise<void> {
    await Comment.updateMany(
      { authorId },
      hidden ? { $set: { authorSuspended: true } } : { $unset: { authorSuspended: 1 } },
    );
  }

  /** Comments as the administrator's report queue shows them (removed ones included). */
  async function commentsForModeration(
    ids: number[],
  ): Promise<Map<number, { authorId: number; postId: number; content: string; deleted: boolean }>> {
    if (ids.length === 0) return new Map();
    const found = await Comment.find(
      { _id: trusted({ $in: ids }) },
      { authorId: 1, postId: 1, content: 1, deletedAt: 1 },
    ).lean();
    return new Map(
      found.map((c) => [
        c._id,
        { authorId: c.authorId, postId: c.postId, content: c.content, deleted: !!c.deletedAt },
      ]),
    );
  }

  /**
   * Moderation: soft-deletes a comment the administrator removed after reports, with its replies
   * (shown under it only). The caller recounts the post's comments (counted without removed ones)
   * in the same transaction. Null when the comment does not exist or was already removed.
   */
  async function removeCommentByModeration(
    id: number,
    now: Date,
  ): Promise<{ postId: number; commentIds: number[] } | null> {
    const comment = await Comment.findOneAndUpdate(
      { _id: id, deletedAt: null },
      { $set: { deletedAt: now } },
      { projection: { postId: 1 } },
    ).lean();
    if (!comment) return null;
    const replies = await Comment.find({ parentId: id, deletedAt: null }, { _id: 1 }).lean();
    const replyIds = replies.map((r) => r._id);
    if (replyIds.length > 0) {
      await Comment.updateMany({ _id: trusted({ $in: replyIds }) }, { $set: { deletedAt: now } });
    }
    const commentIds = [id, ...replyIds];
    publish({ type: 'comment.removed', commentIds, postId: comment.postId });
    return { postId: comment.postId, commentIds };
  }

  /** The text of the visible comments among `ids` (notifications quote what was said). */
  async function commentTexts(ids: number[]): Promise<Map<number, { content: string }>> {
    const found = await Comment.find(
      { _id: trusted({ $in: ids }), ...visible() },
      { content: 1 },
    ).lean();
    return new Map(found.map((c) => [c._id, { content: c.content }]));
  }

  return {
    commentTexts,
    setAuthorHidden,
    commentsForModeration,
    removeCommentByModeration,
    listComments,
    createComment,
    toggleCommentLike,
    countCommentsPerPost,
    storedCommentLikeCounts,
    countAllComments,
    countCommentsOn,
    removeCommentsOf,
    recountCommentLikes,
  };
}

export type CommentService = ReturnType<typeof createCommentService>;
