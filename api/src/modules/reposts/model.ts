import { Schema, type Connection, type Model } from 'mongoose';

/** Who reposted what; the repost itself is a post whose originalPostId is `postId`. */
export interface RepostDoc {
  _id: number;
  userId: number;
  postId: number;
  /** The post that carries the repost on the user's timeline. */
  repostPostId: number;
  createdAt: Date;
}

const repostSchema = new Schema<RepostDoc>(
  {
    _id: { type: Number, required: true },
    userId: { type: Number, required: true },
    postId: { type: Number, required: true },
    repostPostId: { type: Number, required: true },
    createdAt: { type: Date, default: () => new Date(), immutable: true },
  },
  { versionKey: false },
);
// A user reposts a post at most once (see the API README); also "did the viewer repost these".
repostSchema.index({ userId: 1, postId: 1 }, { unique: true });
repostSchema.index({ postId: 1 });

// The app's feed cache (read-caches.ts, posts/feed-cache.ts) forgets what these writes change.
export type RepostModel = Model<RepostDoc>;

/** The Repost model on `connection` (each app binds its own: see src/models.ts). */
export function repostModel(connection: Connection): RepostModel {
  return connection.model<RepostDoc>('Repost', repostSchema, 'reposts');
}

/** This module's Repost model from the app context: only the reposts module reads it (lint). */
export const repostsOf = (ctx: { models: { Repost: RepostModel } }): RepostModel =>
  ctx.models.Repost;
