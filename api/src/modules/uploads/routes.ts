import fs from 'node:fs/promises';
import path from 'node:path';
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { AVATAR_FIELD, calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import type { AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { HttpError } from '../../platform/errors';
import { storeAvatar, UPLOAD_FAILED } from './service';

interface UploadedFile {
  filepath: string;
}

export function uploadRoutes(app: HttpContext) {
  const { config } = app;
  const tempDir = path.join(config.dataDir, 'tmp');
  const router = new Router<AppState>();

  const requireMultipart: Middleware = async (ctx, next) => {
    if (!ctx.is('multipart/form-data')) {
      throw new HttpError(
        415,
        `Send the image as multipart/form-data in the "${AVATAR_FIELD}" field`,
      );
    }
    return next();
  };

  // Multipart parsing exists on this route only. Each request parses into its own temporary
  // directory, removed afterwards whatever happened (formidable leaves partial files on errors).
  const parseMultipart = (uploadDir: string) =>
    koaBody({
      multipart: true,
      json: false,
      urlencoded: false,
      text: false,
      formidable: {
        uploadDir,
        maxFiles: 1,
        maxFields: 10,
        maxFileSize: config.avatarMaxBytes,
        maxTotalFileSize: config.avatarMaxBytes,
        allowEmptyFiles: false,
        filter: (part) => part.name === AVATAR_FIELD,
      },
    });

  // Counted before the body is read: a refused upload costs no parsing and no disk.
  const before = [app.requireAuth, app.limits.avatars, requireMultipart];
  bindCall(router, calls.uploadAvatar, { before }, async (ctx) => {
    await fs.mkdir(tempDir, { recursive: true });
    const uploadDir = await fs.mkdtemp(path.join(tempDir, 'upload-'));
    try {
      await parseMultipart(uploadDir)(ctx, async () => {});
      const avatar = ctx.request.files?.[AVATAR_FIELD];
      if (!avatar || Array.isArray(avatar)) {
        throw new HttpError(400, `${UPLOAD_FAILED}: no image in the "${AVATAR_FIELD}" field`);
      }
      const stored = await storeAvatar((avatar as UploadedFile).filepath, app.storage, {
        maxPixels: config.avatarMaxPixels,
        size: config.avatarSize,
      });
      return { avatarUrl: stored.url };
    } finally {
      await fs.rm(uploadDir, { recursive: true, force: true });
    }
  });

  return router;
}
