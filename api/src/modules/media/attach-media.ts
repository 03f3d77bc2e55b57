import { trusted } from 'mongoose';
import type { AttachImageRequest } from '@campus/contracts';
import type { AppContext } from '../../context';
import { badRequest } from '../../platform/errors';
import { mediaOf } from './model';
import { toStoredImage, type StoredImage } from './present';

export const IMAGE_NOT_ATTACHABLE =
  'An image cannot be attached: each must be your own upload, not yet attached to a post, and less than 24 hours old (upload it again)';

/**
 * Attaches uploads of `ownerId` to post `postId`, in the caller's transaction: each must be the
 * owner's, unattached and unexpired (else 400, and the transaction, the post with it, rolls
 * back). Answers what the post keeps of them, in the order given, with their alt text.
 */
export async function attachMedia(
  ctx: AppContext,
  ownerId: number,
  postId: number,
  images: ReadonlyArray<{ id: string; alt?: AttachImageRequest['alt'] }>,
): Promise<StoredImage[]> {
  if (images.length === 0) return [];
  const ids = images.map((i) => i.id);
  const attachable = {
    _id: trusted({ $in: ids }),
    ownerId,
    postId: null,
    expiresAt: trusted({ $gt: ctx.clock.now() }),
  };
  const found = await mediaOf(ctx).find(attachable).lean();
  if (found.length !== ids.length) throw badRequest(IMAGE_NOT_ATTACHABLE);
  const attached = await mediaOf(ctx).updateMany(attachable, {
    $set: { postId, expiresAt: null },
  });
  // Attached meanwhile by another post: the first to commit has it.
  if (attached.modifiedCount !== ids.length) throw badRequest(IMAGE_NOT_ATTACHABLE);
  const byId = new Map(found.map((doc) => [doc._id, doc]));
  return images.map((i) => toStoredImage(byId.get(i.id)!, i.alt ?? ''));
}
