import fs from 'node:fs/promises';
import path from 'node:path';
import type { Context, Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { HttpError } from './errors';

interface UploadedFile {
  filepath: string;
}

export interface FileUpload {
  /** The multipart field the one file comes in. */
  field: string;
  /** The largest file accepted (formidable stops reading past it: 413). */
  maxBytes: number;
  /** Where each request gets a temporary directory of its own (`<DATA_DIR>/tmp`). */
  tempRoot: string;
  /** The start of the 400's message when the field holds no file, or more than one. */
  failure: string;
}

/** A 415 unless the request is multipart/form-data, before anything of its body is read. */
export function requireMultipart(field: string): Middleware {
  return async (ctx, next) => {
    if (!ctx.is('multipart/form-data')) {
      throw new HttpError(415, `Send the image as multipart/form-data in the "${field}" field`);
    }
    return next();
  };
}

/**
 * Reads the one file of a multipart upload into a temporary directory of this request's own and
 * hands its path to `use`; the directory goes afterwards whatever happened (formidable leaves
 * partial files behind when the body is cut off, too large or malformed), so no upload, finished
 * or not, leaves a file behind.
 */
export async function withUploadedFile<T>(
  ctx: Context,
  upload: FileUpload,
  use: (filepath: string) => Promise<T>,
): Promise<T> {
  await fs.mkdir(upload.tempRoot, { recursive: true });
  const uploadDir = await fs.mkdtemp(path.join(upload.tempRoot, 'upload-'));
  try {
    await koaBody({
      multipart: true,
      json: false,
      urlencoded: false,
      text: false,
      formidable: {
        uploadDir,
        maxFiles: 1,
        maxFields: 10,
        maxFileSize: upload.maxBytes,
        maxTotalFileSize: upload.maxBytes,
        allowEmptyFiles: false,
        filter: (part) => part.name === upload.field,
      },
    })(ctx, async () => {});
    const file = ctx.request.files?.[upload.field];
    if (!file || Array.isArray(file)) {
      throw new HttpError(400, `${upload.failure}: no image in the "${upload.field}" field`);
    }
    return await use((file as UploadedFile).filepath);
  } finally {
    await fs.rm(uploadDir, { recursive: true, force: true });
  }
}
