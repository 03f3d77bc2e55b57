import { z } from 'zod';

const count = z.number().int().nonnegative();

export const analyticsOverviewSchema = z.object({
  totalUsers: count,
  verifiedUsers: count,
  verificationRate: z.number(),
  newUsersWeek: count,
  totalPosts: count,
  postsMonth: count,
  totalLikes: count,
  totalComments: count,
  totalFollows: count,
});
export type AnalyticsOverview = z.infer<typeof analyticsOverviewSchema>;

export const userGrowthSchema = z.array(z.object({ date: z.string(), users: count }));
export type UserGrowth = z.infer<typeof userGrowthSchema>;

export const engagementSchema = z.object({
  posts: z.array(z.object({ date: z.string(), count })),
});
export type Engagement = z.infer<typeof engagementSchema>;

export const activeUsersSchema = z.object({ dau: count, mau: count });
export type ActiveUsers = z.infer<typeof activeUsersSchema>;
