import { Schema, type Connection, type Model } from 'mongoose';

/** What a version is of: a post's text (a quote's comment) or a comment's. */
export type VersionedKind = 'post' | 'comment';

/** An earlier text of an edited post or comment, kept when its author replaced it. */
export interface ContentVersionDoc {
  _id: number;
  kind: VersionedKind;
  targetId: number;
  content: string;
  /** When this text was written (the post's or comment's creation, or the edit that wrote it). */
  writtenAt: Date;
}

const contentVersionSchema = new Schema<ContentVersionDoc>(
  {
    _id: { type: Number, required: true },
    kind: { type: String, enum: ['post', 'comment'], required: true },
    targetId: { type: Number, required: true },
    content: { type: String, default: '' },
    writtenAt: { type: Date, required: true },
  },
  { versionKey: false },
);
// One post's or comment's versions, newest first.
contentVersionSchema.index({ kind: 1, targetId: 1, writtenAt: -1, _id: -1 });

export type ContentVersionModel = Model<ContentVersionDoc>;

/** The ContentVersion model on `connection` (each app binds its own: see src/models.ts). */
export function contentVersionModel(connection: Connection): ContentVersionModel {
  return connection.model<ContentVersionDoc>(
    'ContentVersion',
    contentVersionSchema,
    'content_versions',
  );
}

/** This module's model from the app context: only the versions module reads it (lint). */
export const versionsOf = (ctx: {
  models: { ContentVersion: ContentVersionModel };
}): ContentVersionModel => ctx.models.ContentVersion;
