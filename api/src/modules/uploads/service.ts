import sharp from 'sharp';
import { HttpError } from '../../platform/errors';
import type { StoredFile, UploadStorage } from '../../platform/storage';

export const UPLOAD_FAILED = 'Upload failed';
export const NOT_AN_IMAGE = 'Only JPEG, PNG, WebP or GIF images are accepted';

/** Formats recognised by their content (sharp reads the bytes, never the name or the MIME type). */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif']);

export interface AvatarOptions {
  maxPixels: number;
  size: number;
  /** Deleted after this unless a profile shows it first (storage `keep`). */
  expiresAt?: Date;
}

/**
 * Recognises an image by its content, refuses anything else or anything too large in pixels, and
 * re-encodes it to a square WebP without metadata: whatever else the file carried (a script, a
 * second format appended to it, EXIF) does not survive.
 */
async function processAvatar(input: Buffer | string, options: AvatarOptions): Promise<Buffer> {
  // Reads the header only; the pixel limit is checked below so that it gets its own message.
  const metadata = await sharp(input, { limitInputPixels: false })
    .metadata()
    .catch(() => undefined);
  if (!metadata?.format || !ACCEPTED_FORMATS.has(metadata.format)) {
    throw new HttpError(415, NOT_AN_IMAGE);
  }
  const width = metadata.width ?? 0;
  const height = (metadata.pageHeight ?? metadata.height) || 0;
  if (width === 0 || height === 0) throw new HttpError(415, NOT_AN_IMAGE);
  if (width * height > options.maxPixels) {
    throw new HttpError(413, 'Image dimensions are too large');
  }
  try {
    return await sharp(input, { limitInputPixels: options.maxPixels, failOn: 'error' })
      .rotate()
      .resize(options.size, options.size, { fit: 'cover', withoutEnlargement: true })
      .webp({ quality: 85 })
      .toBuffer();
  } catch {
    throw new HttpError(415, NOT_AN_IMAGE);
  }
}

export async function storeAvatar(
  input: Buffer | string,
  storage: UploadStorage,
  options: AvatarOptions,
): Promise<StoredFile> {
  return storage.save(await processAvatar(input, options), 'webp', {
    expiresAt: options.expiresAt,
  });
}
