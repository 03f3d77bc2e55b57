import { MAX_FOLLOWED_TAGS, type TagFollowResponse } from '@campus/contracts';
import type { AppContext } from '../../context';
import { badRequest } from '../../platform/errors';
import { isDuplicateKey } from '../../platform/mongo-errors';
import { tagFollowsOf } from './model';

/**
 * Follows a tag (idempotent): its posts join the member's Following tab. At most
 * MAX_FOLLOWED_TAGS tags per member (400 naming the limit). A tag no post carries yet may be
 * followed: its first post will show.
 */
export async function followTag(
  ctx: AppContext,
  userId: number,
  tag: string,
): Promise<TagFollowResponse> {
  if (await tagFollowsOf(ctx).exists({ userId, tag })) return { tag, followed: true };
  try {
    await ctx.transaction(async () => {
      const count = await tagFollowsOf(ctx).countDocuments({ userId });
      if (count >= MAX_FOLLOWED_TAGS)
        throw badRequest(`You can follow at most ${MAX_FOLLOWED_TAGS} tags`);
      await tagFollowsOf(ctx).create([{ userId, tag, createdAt: ctx.clock.now() }]);
      ctx.publish({ type: 'tag.followed', userId, tag });
    });
  } catch (err) {
    // A concurrent follow of the same tag made it first: the outcome is the same.
    if (!isDuplicateKey(err)) throw err;
  }
  return { tag, followed: true };
}

/** Unfollows a tag (idempotent). */
export async function unfollowTag(
  ctx: AppContext,
  userId: number,
  tag: string,
): Promise<TagFollowResponse> {
  await ctx.transaction(async () => {
    const removed = await tagFollowsOf(ctx).deleteOne({ userId, tag });
    if (removed.deletedCount > 0) ctx.publish({ type: 'tag.unfollowed', userId, tag });
  });
  return { tag, followed: false };
}

/** Account deletion (in its transaction): the tags the member followed. */
export async function removeTagFollowsOf(ctx: AppContext, userId: number): Promise<void> {
  await tagFollowsOf(ctx).deleteMany({ userId });
}
