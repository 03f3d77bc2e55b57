import { AVATAR_URL_MESSAGE, type ProfileUpdate, type PublicUser } from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { forbidden, HttpError, notFound } from '../../platform/errors';
import { toStoredFileUrl } from '../../platform/storage';
import { usersOf } from './model';
import { userPolicy } from './policy';
import { PUBLIC_USER_FIELDS, toPublicUser } from './presenters';
import { USER_NOT_FOUND } from './queries';

/**
 * The member edits their own profile: name, bio, avatar (an upload of ours, or none). A replaced
 * avatar's file goes once nobody shows it.
 */
export async function updateProfile(
  ctx: AppContext,
  actor: AuthUser,
  userId: number,
  update: ProfileUpdate,
): Promise<PublicUser> {
  if (!userPolicy.canEditProfile(actor, userId)) {
    throw forbidden('You can only edit your own profile');
  }
  const User = usersOf(ctx);
  const changes: { name: string; bio?: string; avatarUrl?: string | null } = {
    name: update.name,
  };
  if (update.bio !== undefined) changes.bio = update.bio;
  let replaced: string | null = null;
  if (update.avatarUrl !== undefined) {
    const avatarUrl = update.avatarUrl
      ? toStoredFileUrl(update.avatarUrl, ctx.config.publicUrl)
      : null;
    const current = await User.findById(userId, { avatarUrl: 1 }).lean();
    if (!current) throw notFound(USER_NOT_FOUND);
    // A new avatar must be a file we hold (not a removed or expired one, nor a name made up);
    // shown on a profile, the upload no longer expires.
    if (
      avatarUrl !== null &&
      avatarUrl !== current.avatarUrl &&
      !(await ctx.storage.keep(avatarUrl, ctx.clock.now()))
    ) {
      throw new HttpError(400, AVATAR_URL_MESSAGE);
    }
    if (current.avatarUrl !== avatarUrl) replaced = current.avatarUrl;
    changes.avatarUrl = avatarUrl;
  }
  const user = await ctx.transaction(async () => {
    const updated = await User.findByIdAndUpdate(
      userId,
      { $set: changes },
      { returnDocument: 'after', projection: PUBLIC_USER_FIELDS, runValidators: true },
    ).lean();
    if (!updated) throw notFound(USER_NOT_FOUND);
    ctx.publish({ type: 'profile.updated', userId });
    return updated;
  });
  if (replaced) await removeUnusedUpload(ctx, replaced);
  return toPublicUser(user, ctx.config.publicUrl);
}

/**
 * Deletes a replaced avatar's file unless another member shows the same upload. A file that
 * cannot be deleted stays behind; the profile change it belonged to has already succeeded.
 */
async function removeUnusedUpload(ctx: AppContext, stored: string): Promise<void> {
  if (await usersOf(ctx).exists({ avatarUrl: stored })) return;
  await ctx.storage.remove(stored).catch(() => undefined);
}
