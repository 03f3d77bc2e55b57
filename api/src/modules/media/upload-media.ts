import { randomBytes } from 'node:crypto';
import { MEDIA_UNATTACHED_TTL_HOURS, type MediaUploadResponse } from '@campus/contracts';
import type { AppContext } from '../../context';
import { HttpError } from '../../platform/errors';
import type { MediaExtension } from '../../platform/media-store';
import { mediaOf, type MediaDoc } from './model';
import type { ProcessImageTask } from './process-image';
import { toUploadResponse } from './present';

const EXTENSIONS: Record<'image/webp' | 'image/avif', MediaExtension> = {
  'image/webp': 'webp',
  'image/avif': 'avif',
};

/** A member's image upload (`POST /api/media`): stored, see `storeImage`. */
export async function uploadMedia(
  ctx: AppContext,
  ownerId: number,
  filepath: string,
): Promise<MediaUploadResponse> {
  const doc = await storeImage(ctx, ownerId, { path: filepath });
  return toUploadResponse(doc, ctx.config.publicUrl);
}

/**
 * An image of `ownerId`'s: processed on the image pool (refused there with 415 or 413), its
 * variants stored, then its record, which expires `MEDIA_UNATTACHED_TTL_HOURS` from now unless a
 * post attaches it (`media.uploaded`). Variants stored before a failure are deleted again.
 */
export async function storeImage(
  ctx: AppContext,
  ownerId: number,
  source: ProcessImageTask['source'],
): Promise<MediaDoc> {
  const processed = await ctx.media.pool.process({
    source,
    maxPixels: ctx.config.media.maxPixels,
  });
  if (!processed.ok) throw new HttpError(processed.status, processed.message);
  const id = randomBytes(16).toString('base64url');
  const names: string[] = [];
  try {
    const variants: MediaDoc['variants'] = [];
    for (const v of processed.variants) {
      const name = await ctx.media.store.put(id, v.data, EXTENSIONS[v.type]);
      names.push(name);
      variants.push({ name, width: v.width, height: v.height, type: v.type, bytes: v.data.length });
    }
    const now = ctx.clock.now();
    const doc: MediaDoc = {
      _id: id,
      ownerId,
      postId: null,
      width: processed.width,
      height: processed.height,
      placeholder: processed.placeholder,
      variants,
      expiresAt: new Date(now.getTime() + MEDIA_UNATTACHED_TTL_HOURS * 60 * 60_000),
      createdAt: now,
    };
    await ctx.transaction(async () => {
      await mediaOf(ctx).create([doc]);
      ctx.publish({ type: 'media.uploaded', mediaId: id, ownerId });
    });
    return doc;
  } catch (err) {
    await ctx.media.store.removeOf(id, names).catch(() => undefined);
    throw err;
  }
}
