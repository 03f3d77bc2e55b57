import path from 'node:path';
import Router from '@koa/router';
import { calls, MEDIA_FIELD } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { requireMultipart, withUploadedFile } from '../../platform/multipart';
import { uploadMedia } from './upload-media';

/** `POST /api/media`: one image, processed and stored, to attach to a post (the files: /media/). */
export function mediaRoutes(app: HttpContext) {
  const router = new Router<AppState>();
  const upload = {
    field: MEDIA_FIELD,
    maxBytes: app.config.media.maxBytes,
    tempRoot: path.join(app.config.dataDir, 'tmp'),
    failure: 'Upload failed',
  };
  // Counted before the body is read: a refused upload costs no parsing and no disk.
  const before = [app.requireAuth, app.limits.media, requireMultipart(MEDIA_FIELD)];
  bindCall(router, calls.uploadMedia, { before }, (ctx) =>
    withUploadedFile(ctx, upload, (filepath) =>
      uploadMedia(app, currentUser(ctx.state).id, filepath),
    ),
  );
  return router;
}
