import { Schema, type Connection, type Model } from 'mongoose';

export interface FollowDoc {
  _id: number;
  followerId: number;
  followingId: number;
  createdAt: Date;
}

const followSchema = new Schema<FollowDoc>(
  {
    _id: { type: Number, required: true },
    followerId: { type: Number, required: true },
    followingId: { type: Number, required: true },
    createdAt: { type: Date, default: () => new Date(), immutable: true },
  },
  { versionKey: false },
);
followSchema.index({ followerId: 1, followingId: 1 }, { unique: true });
followSchema.index({ followingId: 1, createdAt: -1 });

// The app's feed cache (read-caches.ts, posts/feed-cache.ts) forgets what these writes change.
export type FollowModel = Model<FollowDoc>;

/** The Follow model on `connection` (each app binds its own: see src/models.ts). */
export function followModel(connection: Connection): FollowModel {
  return connection.model<FollowDoc>('Follow', followSchema, 'follows');
}

/** This module's Follow model from the app context: only the follows module reads it (lint). */
export const followsOf = (ctx: { models: { Follow: FollowModel } }): FollowModel =>
  ctx.models.Follow;
