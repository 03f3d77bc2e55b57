import { trusted } from 'mongoose';
import type { ActiveUsers, AnalyticsOverview, Engagement, UserGrowth } from '@campus/contracts';
import type { Model } from 'mongoose';
import { lastDays, startOfMonthIn } from '../../platform/time';
import { Comment } from '../comments/model';
import { Follow } from '../follows/model';
import { Like } from '../likes/model';
import { Post } from '../posts/model';
import { User } from '../users/model';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A percentage rounded to one decimal; 0 when there is nothing to divide by. */
export function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;
}

export interface AnalyticsOptions {
  timezone: string;
  now?: Date;
}

export async function overview({
  timezone,
  now = new Date(),
}: AnalyticsOptions): Promise<AnalyticsOverview> {
  const [
    totalUsers,
    verifiedUsers,
    newUsersWeek,
    totalPosts,
    postsMonth,
    totalLikes,
    totalComments,
    totalFollows,
  ] = await Promise.all([
    User.estimatedDocumentCount(),
    User.countDocuments({ isVerified: true }),
    User.countDocuments({ createdAt: trusted({ $gte: new Date(now.getTime() - 7 * DAY) }) }),
    Post.countDocuments({ deletedAt: null }),
    Post.countDocuments({
      deletedAt: null,
      createdAt: trusted({ $gte: startOfMonthIn(timezone, now) }),
    }),
    Like.estimatedDocumentCount(),
    Comment.estimatedDocumentCount(),
    Follow.estimatedDocumentCount(),
  ]);
  return {
    totalUsers,
    verifiedUsers,
    verificationRate: percent(verifiedUsers, totalUsers),
    newUsersWeek,
    totalPosts,
    postsMonth,
    totalLikes,
    totalComments,
    totalFollows,
  };
}

/** Documents created per calendar day (in `timezone`) over the last `days` days, zero-filled. */
async function perDay(
  model: Model<never>,
  match: Record<string, unknown>,
  days: number,
  { timezone, now = new Date() }: AnalyticsOptions,
): Promise<Array<{ date: string; count: number }>> {
  const { keys, since } = lastDays(timezone, days, now);
  const rows = await model.aggregate<{ _id: string; count: number }>([
    { $match: { ...match, createdAt: { $gte: since } } },
    {
      $group: {
        _id: { $dateToString: { format: '%Y-%m-%d', date: '$createdAt', timezone } },
        count: { $sum: 1 },
      },
    },
  ]);
  const byDay = new Map(rows.map((r) => [r._id, r.count]));
  return keys.map((date) => ({ date, count: byDay.get(date) ?? 0 }));
}

export async function userGrowth(opts: AnalyticsOptions): Promise<UserGrowth> {
  const days = await perDay(User as unknown as Model<never>, {}, 30, opts);
  return days.map(({ date, count }) => ({ date, users: count }));
}

export async function engagement(opts: AnalyticsOptions): Promise<Engagement> {
  return { posts: await perDay(Post as unknown as Model<never>, { deletedAt: null }, 7, opts) };
}

export async function activeUsers({ now = new Date() }: AnalyticsOptions): Promise<ActiveUsers> {
  const [dau, mau] = await Promise.all([
    User.countDocuments({ lastActiveAt: trusted({ $gte: new Date(now.getTime() - DAY) }) }),
    User.countDocuments({ lastActiveAt: trusted({ $gte: new Date(now.getTime() - 30 * DAY) }) }),
  ]);
  return { dau, mau };
}
