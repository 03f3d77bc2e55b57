import { Schema, type Connection, type Model } from 'mongoose';

/** A like of a post or of a comment (exactly one of the two ids is set). */
export interface LikeDoc {
  _id: number;
  userId: number;
  postId: number | null;
  commentId: number | null;
  createdAt: Date;
}

const likeSchema = new Schema<LikeDoc>(
  {
    _id: { type: Number, required: true },
    userId: { type: Number, required: true },
    postId: { type: Number, default: null },
    commentId: { type: Number, default: null },
    createdAt: { type: Date, default: () => new Date(), immutable: true },
  },
  { versionKey: false },
);
// One like per user and target: a post like is (user, post, null), a comment like is
// (user, null, comment). Also serves "which of these did the viewer like".
likeSchema.index({ userId: 1, postId: 1, commentId: 1 }, { unique: true });
likeSchema.index({ postId: 1 });
likeSchema.index({ commentId: 1 });
likeSchema.index({ createdAt: 1 });

// The app's feed cache (read-caches.ts, posts/feed-cache.ts) forgets what these writes change.
export type LikeModel = Model<LikeDoc>;

/** The Like model on `connection` (each app binds its own: see src/models.ts). */
export function likeModel(connection: Connection): LikeModel {
  return connection.model<LikeDoc>('Like', likeSchema, 'likes');
}

/** This module's Like model from the app context: only the likes module reads it (lint). */
export const likesOf = (ctx: { models: { Like: LikeModel } }): LikeModel => ctx.models.Like;
