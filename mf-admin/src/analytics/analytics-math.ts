import type { AnalyticsOverview } from '@campus/contracts';

/** Spec §2: rates to one decimal. */
export function oneDecimal(value: number): string {
  return (Math.round(value * 10) / 10).toFixed(1);
}

/** Engagement rate = (likes + comments) / posts * 100, shown as a percentage. */
export function engagementRate(overview: AnalyticsOverview): string {
  if (overview.totalPosts === 0) return '0.0%';
  return `${oneDecimal(((overview.totalLikes + overview.totalComments) / overview.totalPosts) * 100)}%`;
}

export function averagePostsPerUser(overview: AnalyticsOverview): string {
  return oneDecimal(overview.totalUsers === 0 ? 0 : overview.totalPosts / overview.totalUsers);
}

/** Chart dates as short month and day ("May 3"). */
export function shortDate(date: string): string {
  const parsed = new Date(date.length === 10 ? `${date}T00:00:00` : date);
  return Number.isNaN(parsed.getTime())
    ? date
    : parsed.toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
}

/** The 'Updated: {today}' note, e.g. "Nov 22, 2026". */
export function todayLabel(now: Date = new Date()): string {
  return now.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}
