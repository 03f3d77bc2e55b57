import { trusted } from 'mongoose';
import type { Comment as CommentView, CreateCommentRequest } from '@campus/contracts';
import type { AuthUser } from '../../platform/auth';
import { notFound } from '../../platform/errors';
import { nextId } from '../counters/model';
import { Like } from '../likes/model';
import { notify } from '../notifications/service';
import { Post } from '../posts/model';
import { toAuthor } from '../posts/presenters';
import type { AuthorCache } from '../users/author-cache';
import { Comment, type CommentDoc } from './model';

export const COMMENT_NOT_FOUND = 'Comment not found';

/** What presenting comments needs: the base of absolute avatar URLs and the app's author cache. */
export interface CommentReads {
  publicUrl: string;
  authors: AuthorCache;
}

/**
 * A post's comments, oldest first, each top-level comment with its replies (one level), in three
 * database round trips: comments, then authors and the viewer's comment likes in parallel.
 */
export async function listComments(
  postId: number,
  viewerId: number,
  { publicUrl, authors: authorCache }: CommentReads,
): Promise<CommentView[]> {
  const comments = await Comment.find({ postId })
    .sort({ createdAt: 1, _id: 1 })
    .lean<CommentDoc[]>();
  if (comments.length === 0) return [];
  const [authors, likes] = await Promise.all([
    authorCache.byId(comments.map((c) => c.authorId)),
    Like.find(
      {
        userId: viewerId,
        postId: null,
        commentId: trusted({ $in: comments.map((c) => c._id) }),
      },
      { commentId: 1 },
    ).lean(),
  ]);
  const liked = new Set(likes.map((l) => l.commentId));
  const present = (c: CommentDoc): CommentView => ({
    id: c._id,
    content: c.content,
    createdAt: c.createdAt.toISOString(),
    author: toAuthor(c.authorId, authors.get(c.authorId), publicUrl),
    likesCount: c.likesCount,
    isLiked: liked.has(c._id),
  });
  const topLevel = new Map<number, CommentView & { replies: CommentView[] }>();
  for (const c of comments)
    if (c.parentId === null) topLevel.set(c._id, { ...present(c), replies: [] });
  for (const c of comments) {
    if (c.parentId !== null) topLevel.get(c.parentId)?.replies.push(present(c));
  }
  return [...topLevel.values()];
}

/**
 * Adds a comment or a reply. A reply to a reply attaches to the top-level comment. With
 * `syncToTimeline` the comment is also published on the commenter's timeline as a quote of the
 * post (a post with `originalPostId` and the comment as `repostComment`).
 */
export async function addComment(
  actor: AuthUser,
  postId: number,
  input: CreateCommentRequest,
  reads: CommentReads,
): Promise<CommentView> {
  const post = await Post.findOne(
    { _id: postId, deletedAt: null },
    { authorId: 1, originalPostId: 1 },
  ).lean();
  if (!post) throw notFound('Post not found');
  let parent: Pick<CommentDoc, '_id' | 'parentId' | 'authorId'> | null = null;
  if (input.parentId !== undefined) {
    parent = await Comment.findOne(
      { _id: input.parentId, postId },
      { parentId: 1, authorId: 1 },
    ).lean();
    if (!parent) throw notFound(COMMENT_NOT_FOUND);
    if (parent.parentId !== null) {
      parent = await Comment.findById(parent.parentId, {
        parentId: 1,
        authorId: 1,
      }).lean();
      if (!parent) throw notFound(COMMENT_NOT_FOUND);
    }
  }
  const comment = await Comment.create({
    _id: await nextId('comments'),
    postId,
    authorId: actor.id,
    parentId: parent?._id ?? null,
    content: input.content,
  });
  await Post.updateOne({ _id: postId }, { $inc: { commentsCount: 1 } });

  if (input.syncToTimeline) {
    await Post.create({
      _id: await nextId('posts'),
      authorId: actor.id,
      content: '',
      originalPostId: post.originalPostId ?? postId,
      repostComment: input.content,
      sharedCommentId: comment._id,
    });
  }

  const notified = new Set<number>([actor.id]);
  if (parent && !notified.has(parent.authorId)) {
    notified.add(parent.authorId);
    await notify({
      userId: parent.authorId,
      type: 'reply',
      actorId: actor.id,
      postId,
    });
  }
  if (!notified.has(post.authorId)) {
    await notify({
      userId: post.authorId,
      type: 'comment',
      actorId: actor.id,
      postId,
    });
  }

  const authors = await reads.authors.byId([actor.id]);
  return {
    id: comment._id,
    content: comment.content,
    createdAt: comment.createdAt.toISOString(),
    author: toAuthor(actor.id, authors.get(actor.id), reads.publicUrl),
    likesCount: 0,
    isLiked: false,
    replies: [],
  };
}
