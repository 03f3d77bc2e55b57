import path from 'node:path';
import Router from '@koa/router';
import { AVATAR_FIELD, calls, MEDIA_UNATTACHED_TTL_HOURS } from '@campus/contracts';
import type { HttpContext } from '../../context';
import type { AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { requireMultipart, withUploadedFile } from '../../platform/multipart';
import { storeAvatar, UPLOAD_FAILED } from './service';

export function uploadRoutes(app: HttpContext) {
  const { config } = app;
  const router = new Router<AppState>();
  const upload = {
    field: AVATAR_FIELD,
    maxBytes: config.avatarMaxBytes,
    tempRoot: path.join(config.dataDir, 'tmp'),
    failure: UPLOAD_FAILED,
  };

  // Counted before the body is read: a refused upload costs no parsing and no disk.
  const before = [app.requireAuth, app.limits.avatars, requireMultipart(AVATAR_FIELD)];
  bindCall(router, calls.uploadAvatar, { before }, (ctx) =>
    withUploadedFile(ctx, upload, async (filepath) => {
      // Until a profile shows it (update-profile.ts `keep`), the upload expires as images do.
      const expiresAt = new Date(
        app.clock.now().getTime() + MEDIA_UNATTACHED_TTL_HOURS * 60 * 60_000,
      );
      const stored = await storeAvatar(filepath, app.storage, {
        maxPixels: config.avatarMaxPixels,
        size: config.avatarSize,
        expiresAt,
      });
      return { avatarUrl: stored.url };
    }),
  );

  return router;
}
