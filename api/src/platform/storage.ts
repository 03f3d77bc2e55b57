import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Middleware } from 'koa';
import mongoose from 'mongoose';
import { AVATAR_URL_MESSAGE } from '@campus/contracts';
import { HttpError } from './errors';

const STORED_NAME = /^[a-f0-9]{32}\.(webp|png|jpg)$/;
const CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
};

/** GridFS keeps uploads in `uploads.files` (one document per file) and `uploads.chunks`. */
export const UPLOADS_BUCKET = 'uploads';
/** A stored name never gets other bytes, so browsers and proxies may keep it for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface StoredFile {
  name: string;
  /** `/uploads/<name>`: what the database keeps, independent of where the API is reachable. */
  path: string;
  /** Absolute URL, based on PUBLIC_URL. */
  url: string;
}

const UPLOAD_PATH = /^\/uploads\/[a-f0-9]{32}\.(webp|png|jpg)$/;

/**
 * An avatar URL as the database keeps it: the path of one of our own uploads, given as that path
 * or as the absolute URL on `publicUrl` the upload route handed out. Anything else (another site's
 * image, which every viewer's browser would fetch) is a 400.
 */
export function toStoredFileUrl(url: string, publicUrl: string): string {
  if (UPLOAD_PATH.test(url)) return url;
  if (url.startsWith(`${publicUrl}/uploads/`)) {
    const pathPart = url.slice(publicUrl.length);
    if (UPLOAD_PATH.test(pathPart)) return pathPart;
  }
  throw new HttpError(400, AVATAR_URL_MESSAGE);
}

/** Stored upload paths become absolute URLs on the way out. */
export function toPublicFileUrl(stored: string, publicUrl: string): string {
  return UPLOAD_PATH.test(stored) ? `${publicUrl}${stored}` : stored;
}

export interface UploadStorage {
  /**
   * Stores a file under a new random name. With `expiresAt` (an avatar upload), it is deleted by
   * `removeExpired` from then on unless `keep` was called on it first.
   */
  save(
    data: Buffer,
    extension: 'webp' | 'png' | 'jpg',
    options?: { expiresAt?: Date },
  ): Promise<StoredFile>;
  /** Whether `storedPath` (`/uploads/<name>`) is a file we store. */
  has(storedPath: string): Promise<boolean>;
  /**
   * A profile shows `storedPath` from now on: it no longer expires. False when it is not a file we
   * store, or its expiry has passed at `now` (the sweep may be deleting it).
   */
  keep(storedPath: string, now: Date): Promise<boolean>;
  /** Deletes up to `limit` files whose expiry has passed at `now`; answers how many. */
  removeExpired(now: Date, limit: number): Promise<number>;
  /** Deletes a stored file (a replaced avatar); anything that is not one is left alone. */
  remove(storedPath: string): Promise<void>;
  /** `GET /uploads/:name`: stored files only, with their content type, ETag and a long cache. */
  serve(): Middleware;
  /**
   * Copies the uploads an older version kept on disk (`<DATA_DIR>/uploads/<name>`) into the store
   * under the same names, so stored avatar URLs keep working; names already stored are skipped.
   * Answers how many it copied. The files are left where they were.
   */
  importFrom(dir: string): Promise<number>;
}

interface UploadMetadata {
  contentType: string;
  /** Quoted strong validator: the SHA-256 of the bytes. */
  etag: string;
  /** An upload no profile has shown yet: deleted after this (absent: kept). */
  expiresAt?: Date;
}

/**
 * Whether an If-None-Match header names `etag` (weak comparison, RFC 9110 13.1.2). Compared here
 * rather than with Koa's `ctx.fresh`, which answers 200 to any request with `Cache-Control:
 * no-cache`, as fetch() sends with every conditional request: the origin may still answer 304.
 */
export function matchesEtag(ifNoneMatch: string, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}

function storedName(storedPath: string): string | undefined {
  return UPLOAD_PATH.test(storedPath) ? storedPath.slice('/uploads/'.length) : undefined;
}

/**
 * Uploads under random names in the database's own file store (GridFS, bucket `uploads`) on the
 * app's connection, so every API process stores and serves every file: nothing is on a disk of
 * one process. Served by the API under `/uploads/<name>` with an ETag (304 on If-None-Match) and
 * an immutable year-long cache.
 */
export function createUploadStorage(
  connection: mongoose.Connection,
  publicUrl: string,
): UploadStorage {
  const bucket = () => {
    const db = connection.db;
    if (!db) throw new Error('createUploadStorage: the database connection is not open');
    return new mongoose.mongo.GridFSBucket(db, { bucketName: UPLOADS_BUCKET });
  };
  const filesNamed = (name: string) => bucket().find({ filename: name }).toArray();

  const store = async (name: string, data: Buffer, expiresAt?: Date) => {
    const metadata: UploadMetadata = {
      contentType: CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)]!,
      etag: `"${createHash('sha256').update(data).digest('base64url')}"`,
      ...(expiresAt ? { expiresAt } : {}),
    };
    const upload = bucket().openUploadStream(name, { metadata });
    await new Promise<void>((resolve, reject) => {
      upload.once('error', reject);
      upload.end(data, () => resolve());
    });
  };
  const has = async (name: string) =>
    (await bucket().find({ filename: name }).limit(1).toArray()).length > 0;
  const files = () => connection.db!.collection(`${UPLOADS_BUCKET}.files`);
  const deleteFile = (id: mongoose.mongo.ObjectId) =>
    bucket()
      .delete(id)
      // Another process removing the same file at the same time is not an error.
      .catch((err: unknown) => {
        if (!(err instanceof mongoose.mongo.MongoRuntimeError)) throw err;
      });

  return {
    async save(data, extension, options) {
      const name = `${randomBytes(16).toString('hex')}.${extension}`;
      await store(name, data, options?.expiresAt);
      return { name, path: `/uploads/${name}`, url: `${publicUrl}/uploads/${name}` };
    },
    async importFrom(dir) {
      const names = await fs.readdir(dir).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return [];
        throw err;
      });
      let copied = 0;
      for (const name of names.filter((n) => STORED_NAME.test(n)).sort()) {
        if (await has(name)) continue;
        await store(name, await fs.readFile(path.join(dir, name)));
        copied += 1;
      }
      return copied;
    },
    async has(storedPath) {
      const name = storedName(storedPath);
      return name ? has(name) : false;
    },
    async keep(storedPath, now) {
      const name = storedName(storedPath);
      if (!name) return false;
      const kept = await files().updateMany(
        {
          filename: name,
          $or: [
            { 'metadata.expiresAt': { $exists: false } },
            { 'metadata.expiresAt': { $gt: now } },
          ],
        },
        { $unset: { 'metadata.expiresAt': '' } },
      );
      return kept.matchedCount > 0;
    },
    async removeExpired(now, limit) {
      const expired = await files()
        .find({ 'metadata.expiresAt': { $lte: now } }, { projection: { _id: 1 } })
        .limit(limit)
        .toArray();
      for (const file of expired) await deleteFile(file._id as mongoose.mongo.ObjectId);
      return expired.length;
    },
    async remove(storedPath) {
      const name = storedName(storedPath);
      if (!name) return;
      for (const file of await filesNamed(name)) await deleteFile(file._id);
    },
    serve() {
      return async (ctx, next) => {
        const match = /^\/uploads\/([^/]+)$/.exec(ctx.path);
        if (!match || ctx.method !== 'GET') return next();
        const name = match[1]!;
        if (!STORED_NAME.test(name)) return next();
        ctx.state.route = '/uploads/:name';
        const [file] = await bucket().find({ filename: name }).limit(1).toArray();
        if (!file) return next();
        const metadata = file.metadata as UploadMetadata | undefined;
        ctx.status = 200;
        ctx.set('Cache-Control', IMMUTABLE);
        if (metadata?.etag) ctx.set('ETag', metadata.etag);
        ctx.type = metadata?.contentType ?? CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)]!;
        if (metadata?.etag && matchesEtag(ctx.get('If-None-Match'), metadata.etag)) {
          ctx.status = 304;
          return;
        }
        ctx.length = file.length;
        ctx.body = bucket().openDownloadStream(file._id);
      };
    },
  };
}
