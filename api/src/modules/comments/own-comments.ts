/** A comment's author editing or deleting it: the comments module's side of those use cases. */
import { trusted } from 'mongoose';
import type { AppContext } from '../../context';
import type { StoredMention } from '../mentions/stored';
import { commentsOf, type CommentDoc } from './model';
import { liveComments, visibleComments } from './queries';

export type LiveComment = Pick<
  CommentDoc,
  | '_id'
  | 'postId'
  | 'authorId'
  | 'parentId'
  | 'content'
  | 'likesCount'
  | 'createdAt'
  | 'editedAt'
  | 'mentions'
>;

/** A comment with its text (not removed, hidden or a "deleted" placeholder), or null. */
export function findLiveComment(ctx: AppContext, id: number): Promise<LiveComment | null> {
  return commentsOf(ctx)
    .findOne(
      { _id: id, ...liveComments() },
      {
        postId: 1,
        authorId: 1,
        parentId: 1,
        content: 1,
        likesCount: 1,
        createdAt: 1,
        editedAt: 1,
        mentions: 1,
      },
    )
    .lean<LiveComment>();
}

/**
 * Replaces a live comment's text and its mentions (in the caller's transaction), marked edited
 * at `editedAt` (undefined: the text is the same, only its mentions change); the comment as
 * stored after it, or null when it is gone meanwhile.
 */
export function rewriteComment(
  ctx: AppContext,
  id: number,
  content: string,
  editedAt: Date | undefined,
  mentions: StoredMention[] = [],
): Promise<CommentDoc | null> {
  const text = { content, ...(editedAt ? { editedAt } : {}) };
  return commentsOf(ctx)
    .findOneAndUpdate(
      { _id: id, ...liveComments() },
      mentions.length ? { $set: { ...text, mentions } } : { $set: text, $unset: { mentions: 1 } },
      { returnDocument: 'after' },
    )
    .lean<CommentDoc>();
}

/**
 * Deletes a live comment for its author, in the caller's transaction (which moves the post's
 * count by one). A top-level comment with visible replies stays as a "deleted" placeholder
 * without its text; any other goes. A reply that was the last under a placeholder takes the
 * placeholder with it (`alsoGone`). Null when the comment is gone meanwhile.
 */
export async function deleteCommentForAuthor(
  ctx: AppContext,
  comment: Pick<CommentDoc, '_id' | 'parentId'>,
  now: Date,
): Promise<{ placeholder: boolean; alsoGone: number[] } | null> {
  const Comment = commentsOf(ctx);
  const hasReplies =
    comment.parentId === null &&
    (await Comment.exists({ parentId: comment._id, ...visibleComments() })) !== null;
  const done = await Comment.updateOne(
    { _id: comment._id, ...liveComments() },
    hasReplies
      ? { $set: { withdrawnAt: now, content: '' }, $unset: { editedAt: 1, mentions: 1 } }
      : { $set: { deletedAt: now } },
  );
  if (done.modifiedCount === 0) return null;
  const alsoGone: number[] = [];
  if (comment.parentId !== null) {
    const parent = await Comment.findOne(
      { _id: comment.parentId, deletedAt: null, withdrawnAt: trusted({ $ne: null }) },
      { _id: 1 },
    ).lean();
    if (parent && !(await Comment.exists({ parentId: parent._id, ...visibleComments() }))) {
      await Comment.updateOne({ _id: parent._id }, { $set: { deletedAt: now } });
      alsoGone.push(parent._id);
    }
  }
  return { placeholder: hasReplies, alsoGone };
}
