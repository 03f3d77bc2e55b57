import type { ActiveUsers, AnalyticsOverview, Engagement, UserGrowth } from '@campus/contracts';
import { lastDays, startOfMonthIn } from '../../platform/time';
import type { AppContext } from '../../context';
import { countAllComments } from '../comments/queries';
import { countAllFollows } from '../follows/queries';
import { countAllLikes } from '../likes/queries';
import { postCounts } from '../posts/queries';
import { userCounts } from '../users/queries';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A percentage rounded to one decimal; 0 when there is nothing to divide by. */
export function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;
}

export async function overview(ctx: AppContext): Promise<AnalyticsOverview> {
  const { timezone } = ctx.config;
  const now = ctx.clock.now();
  const counts = await allOf({
    totalUsers: userCounts(ctx).all(),
    verifiedUsers: userCounts(ctx).verified(),
    newUsersWeek: userCounts(ctx).createdSince(new Date(now.getTime() - 7 * DAY)),
    totalPosts: postCounts(ctx).visible(),
    postsMonth: postCounts(ctx).visibleSince(startOfMonthIn(timezone, now)),
    totalLikes: countAllLikes(ctx),
    totalComments: countAllComments(ctx),
    totalFollows: countAllFollows(ctx),
  });
  return { ...counts, verificationRate: percent(counts.verifiedUsers, counts.totalUsers) };
}

/** Awaits every promise of `pending` together: the same keys, each with its value. */
async function allOf<T extends Record<string, Promise<unknown>>>(
  pending: T,
): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const keys = Object.keys(pending);
  const values = await Promise.all(Object.values(pending));
  return Object.fromEntries(keys.map((key, i) => [key, values[i]])) as {
    [K in keyof T]: Awaited<T[K]>;
  };
}

/** Zero-filled counts per calendar day (in `timezone`) over the last `days` days. */
async function perDay(
  ctx: AppContext,
  count: (since: Date, timezone: string) => Promise<Map<string, number>>,
  days: number,
): Promise<Array<{ date: string; count: number }>> {
  const { timezone } = ctx.config;
  const now = ctx.clock.now();
  const { keys, since } = lastDays(timezone, days, now);
  const byDay = await count(since, timezone);
  return keys.map((date) => ({ date, count: byDay.get(date) ?? 0 }));
}

export async function userGrowth(ctx: AppContext): Promise<UserGrowth> {
  const days = await perDay(ctx, userCounts(ctx).createdPerDay, 30);
  return days.map(({ date, count }) => ({ date, users: count }));
}

export async function engagement(ctx: AppContext): Promise<Engagement> {
  return { posts: await perDay(ctx, postCounts(ctx).visiblePerDay, 7) };
}

export async function activeUsers(ctx: AppContext): Promise<ActiveUsers> {
  const now = ctx.clock.now();
  const [dau, mau] = await Promise.all([
    userCounts(ctx).activeSince(new Date(now.getTime() - DAY)),
    userCounts(ctx).activeSince(new Date(now.getTime() - 30 * DAY)),
  ]);
  return { dau, mau };
}
