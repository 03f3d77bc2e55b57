import { Schema, type Connection, type Model } from 'mongoose';

/** One stored rendition of an image (GridFS bucket `media`, named by the hash of its bytes). */
export interface MediaVariantDoc {
  name: string;
  width: number;
  height: number;
  type: 'image/webp' | 'image/avif';
  bytes: number;
}

/**
 * An image a member uploaded (`POST /api/media`): its stored variants and what a post shows of
 * it. Unattached, it expires at `expiresAt`; a post attaching it sets `postId` and clears
 * `expiresAt`; deleting the post (or the account) sets `expiresAt` to then, and the sweep
 * (janitor.ts) deletes its files and this record.
 */
export interface MediaDoc {
  /** Random, unguessable: what `images[].id` of a post names. */
  _id: string;
  ownerId: number;
  postId: number | null;
  width: number;
  height: number;
  /** ThumbHash, base64. */
  placeholder: string;
  variants: MediaVariantDoc[];
  /** Null while a post shows it. */
  expiresAt: Date | null;
  createdAt: Date;
}

const variantSchema = new Schema<MediaVariantDoc>(
  {
    name: { type: String, required: true },
    width: { type: Number, required: true },
    height: { type: Number, required: true },
    type: { type: String, required: true },
    bytes: { type: Number, required: true },
  },
  { _id: false },
);

const mediaSchema = new Schema<MediaDoc>(
  {
    _id: { type: String, required: true },
    ownerId: { type: Number, required: true },
    postId: { type: Number, default: null },
    width: { type: Number, required: true },
    height: { type: Number, required: true },
    placeholder: { type: String, required: true },
    variants: { type: [variantSchema], required: true },
    expiresAt: { type: Date, default: null },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
// The sweep: what has expired (unattached uploads, images of deleted posts).
mediaSchema.index({ expiresAt: 1 });
// Deleting a post or an account: its images.
mediaSchema.index({ postId: 1 });
mediaSchema.index({ ownerId: 1 });

export type MediaModel = Model<MediaDoc>;

export function mediaModel(connection: Connection): MediaModel {
  return connection.model<MediaDoc>('Media', mediaSchema, 'media_uploads');
}

/** This module's Media model from the app context: only the media module reads it (lint). */
export const mediaOf = (ctx: { models: { Media: MediaModel } }): MediaModel => ctx.models.Media;
