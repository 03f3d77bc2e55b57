import type { AnalyticsOverview } from '@campus/contracts';
import { monthDay } from '@campus/kit/format';

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

/**
 * Chart dates as short month and day ("May 3"). The kit's `monthDay`, not toLocaleDateString:
 * the dashboard's first Intl formatter would load the browser's locale data before its figures
 * are drawn (@campus/kit/format calendar.ts).
 */
export function shortDate(date: string): string {
  const parsed = new Date(date.length === 10 ? `${date}T00:00:00` : date);
  return Number.isNaN(parsed.getTime()) ? date : monthDay(parsed);
}

/** The 'Updated: {today}' note, e.g. "Nov 22, 2026". */
export function todayLabel(now: Date = new Date()): string {
  return monthDay(now, { year: true });
}
