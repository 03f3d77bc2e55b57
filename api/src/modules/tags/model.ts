import { Schema, type Connection, type Model } from 'mongoose';

/** A member follows a tag (issue 40): its posts join their Following tab. */
export interface TagFollowDoc {
  userId: number;
  /** Normalized (contracts' `normalizeTag`). */
  tag: string;
  createdAt: Date;
}

const tagFollowSchema = new Schema<TagFollowDoc>(
  {
    userId: { type: Number, required: true },
    tag: { type: String, required: true },
    createdAt: { type: Date, default: () => new Date(), immutable: true },
  },
  { versionKey: false },
);
// One follow per member and tag; a member's tags, newest first.
tagFollowSchema.index({ userId: 1, tag: 1 }, { unique: true });
tagFollowSchema.index({ userId: 1, createdAt: -1 });

export type TagFollowModel = Model<TagFollowDoc>;

/** The TagFollow model on `connection` (each app binds its own: see src/models.ts). */
export function tagFollowModel(connection: Connection): TagFollowModel {
  return connection.model<TagFollowDoc>('TagFollow', tagFollowSchema, 'tag_follows');
}

/** This module's TagFollow model from the app context: only the tags module reads it (lint). */
export const tagFollowsOf = (ctx: { models: { TagFollow: TagFollowModel } }): TagFollowModel =>
  ctx.models.TagFollow;
