import type { ActiveUsers, AnalyticsOverview, Engagement, UserGrowth } from '@campus/contracts';
import { lastDays, startOfMonthIn } from '../../platform/time';
import type { CommentService } from '../comments/service';
import type { FollowService } from '../follows/service';
import type { LikeService } from '../likes/service';
import type { PostService } from '../posts/service';
import type { UserService } from '../users/service';

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

export interface AnalyticsServiceDeps {
  comments: CommentService;
  follows: FollowService;
  likes: LikeService;
  posts: PostService;
  users: UserService;
}

export function createAnalyticsService({
  comments,
  follows,
  likes,
  posts,
  users,
}: AnalyticsServiceDeps) {
  const { countAllComments } = comments;
  const { countAllFollows } = follows;
  const { countAllLikes } = likes;
  const { postCounts } = posts;
  const { userCounts } = users;

  async function overview({
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
      userCounts.all(),
      userCounts.verified(),
      userCounts.createdSince(new Date(now.getTime() - 7 * DAY)),
      postCounts.visible(),
      postCounts.visibleSince(startOfMonthIn(timezone, now)),
      countAllLikes(),
      countAllComments(),
      countAllFollows(),
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

  /** Zero-filled counts per calendar day (in `timezone`) over the last `days` days. */
  async function perDay(
    count: (since: Date, timezone: string) => Promise<Map<string, number>>,
    days: number,
    { timezone, now = new Date() }: AnalyticsOptions,
  ): Promise<Array<{ date: string; count: number }>> {
    const { keys, since } = lastDays(timezone, days, now);
    const byDay = await count(since, timezone);
    return keys.map((date) => ({ date, count: byDay.get(date) ?? 0 }));
  }

  async function userGrowth(opts: AnalyticsOptions): Promise<UserGrowth> {
    const days = await perDay(userCounts.createdPerDay, 30, opts);
    return days.map(({ date, count }) => ({ date, users: count }));
  }

  async function engagement(opts: AnalyticsOptions): Promise<Engagement> {
    return { posts: await perDay(postCounts.visiblePerDay, 7, opts) };
  }

  async function activeUsers({ now = new Date() }: AnalyticsOptions): Promise<ActiveUsers> {
    const [dau, mau] = await Promise.all([
      userCounts.activeSince(new Date(now.getTime() - DAY)),
      userCounts.activeSince(new Date(now.getTime() - 30 * DAY)),
    ]);
    return { dau, mau };
  }

  return { overview, userGrowth, engagement, activeUsers };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
