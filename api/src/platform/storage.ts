import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Middleware } from 'koa';
import { AVATAR_URL_MESSAGE } from '@campus/contracts';
import { HttpError } from './errors';

const STORED_NAME = /^[a-f0-9]{32}\.(webp|png|jpg)$/;
const CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
};

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
  dir: string;
  save(data: Buffer, extension: 'webp' | 'png' | 'jpg'): Promise<StoredFile>;
  /** Whether `storedPath` (`/uploads/<name>`) is a file we store. */
  has(storedPath: string): Promise<boolean>;
  /** Deletes a stored file (a replaced avatar); anything that is not one is left alone. */
  remove(storedPath: string): Promise<void>;
  /** `GET /uploads/:name`: stored files only, with their content type and a long cache. */
  serve(): Middleware;
}

/** Files under random names in one directory, served by the API under `/uploads/`. */
export function createUploadStorage(dir: string, publicUrl: string): UploadStorage {
  return {
    dir,
    async save(data, extension) {
      await fs.mkdir(dir, { recursive: true });
      const name = `${randomBytes(16).toString('hex')}.${extension}`;
      await fs.writeFile(path.join(dir, name), data, { flag: 'wx' });
      return { name, path: `/uploads/${name}`, url: `${publicUrl}/uploads/${name}` };
    },
    async has(storedPath) {
      if (!UPLOAD_PATH.test(storedPath)) return false;
      return fs.stat(path.join(dir, path.basename(storedPath))).then(
        (stat) => stat.isFile(),
        () => false,
      );
    },
    async remove(storedPath) {
      if (!UPLOAD_PATH.test(storedPath)) return;
      await fs.rm(path.join(dir, path.basename(storedPath)), { force: true });
    },
    serve() {
      return async (ctx, next) => {
        const match = /^\/uploads\/([^/]+)$/.exec(ctx.path);
        if (!match || ctx.method !== 'GET') return next();
        const name = match[1]!;
        if (!STORED_NAME.test(name)) return next();
        const file = path.join(dir, name);
        let size: number;
        try {
          size = (await fs.stat(file)).size;
        } catch {
          return next();
        }
        ctx.type = CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)]!;
        ctx.length = size;
        ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
        ctx.body = createReadStream(file);
      };
    },
  };
}
