/** What other modules read of the tags module: the tags a member follows. */
import type { AppContext } from '../../context';
import { tagFollowsOf } from './model';

/** The tags `userId` follows, most recently followed first. */
export async function followedTagsOf(ctx: AppContext, userId: number): Promise<string[]> {
  const rows = await tagFollowsOf(ctx)
    .find({ userId }, { tag: 1, _id: 0 })
    .sort({ createdAt: -1, tag: 1 })
    .lean();
  return rows.map((r) => r.tag);
}

/** Whether `userId` follows `tag`. */
export async function followsTag(ctx: AppContext, userId: number, tag: string): Promise<boolean> {
  return (await tagFollowsOf(ctx).exists({ userId, tag })) !== null;
}
