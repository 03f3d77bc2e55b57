import { Schema, type Connection, type Model } from 'mongoose';
import { storedMentionsField, type StoredMention } from '../mentions/stored';

export interface CommentDoc {
  _id: number;
  postId: number;
  authorId: number;
  /** The top-level comment this replies to; null for a top-level comment (one level only). */
  parentId: number | null;
  content: string;
  likesCount: number;
  /** Set when the administrator removed the comment after reports (it and its replies vanish). */
  deletedAt?: Date | null;
  /**
   * Set when its author deleted it while it had replies: it stays, without its text, as a
   * "deleted" placeholder above them (not counted, not likeable, no reply to it). Its last reply
   * going takes it too (`deletedAt`). A comment without replies is deleted with `deletedAt`.
   */
  withdrawnAt?: Date | null;
  /** When its author last edited its text (absent: never); earlier texts in modules/versions. */
  editedAt?: Date | null;
  /** Its @mentions in `content` (issue 40); absent when none (modules/mentions). */
  mentions?: StoredMention[];
  /** True while the author is suspended: the comment is hidden until they are reactivated. */
  authorSuspended?: boolean;
  createdAt: Date;
}

const commentSchema = new Schema<CommentDoc>(
  {
    _id: { type: Number, required: true },
    postId: { type: Number, required: true },
    authorId: { type: Number, required: true },
    parentId: { type: Number, default: null },
    content: { type: String, required: true },
    likesCount: { type: Number, default: 0, min: 0 },
    deletedAt: { type: Date, default: null },
    withdrawnAt: { type: Date },
    editedAt: { type: Date },
    mentions: storedMentionsField,
    authorSuspended: { type: Boolean },
    createdAt: { type: Date, default: () => new Date(), immutable: true },
  },
  { versionKey: false },
);
// A post's comments: the top-level ones (parentId null) a page at a time in index order, the
// replies of a page's comments by parent.
commentSchema.index({ postId: 1, parentId: 1, createdAt: 1, _id: 1 });
commentSchema.index({ createdAt: 1 });

export type CommentModel = Model<CommentDoc>;

/** The Comment model on `connection` (each app binds its own: see src/models.ts). */
export function commentModel(connection: Connection): CommentModel {
  return connection.model<CommentDoc>('Comment', commentSchema, 'comments');
}

/** This module's Comment model from the app context: only the comments module reads it (lint). */
export const commentsOf = (ctx: { models: { Comment: CommentModel } }): CommentModel =>
  ctx.models.Comment;
