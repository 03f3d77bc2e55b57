import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import mongoose from 'mongoose';
import { matchesEtag } from './storage';

/** GridFS keeps post images in `media.files` (one document per variant) and `media.chunks`. */
export const MEDIA_BUCKET = 'media';
/** Where the API serves them: `/media/<SHA-256 of the bytes, base64url>.<webp|avif>`. */
export const MEDIA_PATH_PREFIX = '/media/';
const MEDIA_NAME = /^[A-Za-z0-9_-]{43}\.(webp|avif)$/;
const CONTENT_TYPES = { webp: 'image/webp', avif: 'image/avif' } as const;
export type MediaExtension = keyof typeof CONTENT_TYPES;
/** A name never gets other bytes (it is their hash): browsers and proxies keep it for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

interface MediaFileMetadata {
  contentType: string;
  /** The upload (modules/media) the variant belongs to: its files go with it. */
  mediaId: string;
}

export interface MediaStore {
  /**
   * Stores one variant of upload `mediaId` under the hash of its bytes and answers that name.
   * The same bytes uploaded twice are two files of one name (each goes with its own upload).
   */
  put(mediaId: string, data: Uint8Array, extension: MediaExtension): Promise<string>;
  /**
   * Deletes the stored variants of an upload: the files of these names that belong to it (found
   * by GridFS's own index on the name; none left: nothing to do).
   */
  removeOf(mediaId: string, names: readonly string[]): Promise<void>;
  /** `GET /media/:name`: stored variants, content-addressed and immutable, with an ETag. */
  serve(): Middleware;
}

/**
 * Post images in the database's file store (GridFS, bucket `media`) on the app's connection: every
 * API process stores and serves every image, nothing is on one process's disk.
 */
export function createMediaStore(connection: mongoose.Connection): MediaStore {
  const bucket = () => {
    const db = connection.db;
    if (!db) throw new Error('createMediaStore: the database connection is not open');
    return new mongoose.mongo.GridFSBucket(db, { bucketName: MEDIA_BUCKET });
  };
  const files = () => connection.db!.collection(`${MEDIA_BUCKET}.files`);

  return {
    async put(mediaId, data, extension) {
      const name = `${createHash('sha256').update(data).digest('base64url')}.${extension}`;
      const metadata: MediaFileMetadata = { contentType: CONTENT_TYPES[extension], mediaId };
      const upload = bucket().openUploadStream(name, { metadata });
      await new Promise<void>((resolve, reject) => {
        upload.once('error', reject);
        upload.end(Buffer.from(data.buffer, data.byteOffset, data.byteLength), () => resolve());
      });
      return name;
    },
    async removeOf(mediaId, names) {
      if (names.length === 0) return;
      const found = await files()
        .find(
          { filename: { $in: [...names] }, 'metadata.mediaId': mediaId },
          { projection: { _id: 1 } },
        )
        .toArray();
      for (const file of found) {
        await bucket()
          .delete(file._id as mongoose.mongo.ObjectId)
          // Another process deleting the same file at the same time is not an error.
          .catch((err: unknown) => {
            if (!(err instanceof mongoose.mongo.MongoRuntimeError)) throw err;
          });
      }
    },
    serve() {
      return async (ctx, next) => {
        if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
        if (!ctx.path.startsWith(MEDIA_PATH_PREFIX)) return next();
        const name = ctx.path.slice(MEDIA_PATH_PREFIX.length);
        if (!MEDIA_NAME.test(name)) return next();
        ctx.state.route = '/media/:name';
        const [file] = await bucket().find({ filename: name }).limit(1).toArray();
        if (!file) return next();
        const extension = name.slice(name.lastIndexOf('.') + 1) as MediaExtension;
        // The name is the hash of the bytes: the strongest validator there is.
        const etag = `"${name.slice(0, name.lastIndexOf('.'))}"`;
        ctx.status = 200;
        ctx.set('Cache-Control', IMMUTABLE);
        ctx.set('ETag', etag);
        ctx.type = CONTENT_TYPES[extension];
        if (matchesEtag(ctx.get('If-None-Match'), etag)) {
          ctx.status = 304;
          return;
        }
        ctx.length = file.length;
        if (ctx.method === 'HEAD') return;
        ctx.body = bucket().openDownloadStream(file._id);
      };
    },
  };
}
