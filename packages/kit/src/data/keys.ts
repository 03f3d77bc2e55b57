/**
 * Every SWR key the apps use, named once. A key is the list of path parts; the default fetcher
 * GETs them joined with '/'. Apps that read the same key share one cache entry (the unread badge
 * in the shell and the notifications page, for instance).
 */
export type ApiKey = readonly [string, ...(string | number)[]];

export const keys = {
  settings: () => ['/api/settings'] as const,
  notifications: () => ['/api/notifications'] as const,
  /** One page of grouped notifications; `before` is the previous page's cursor (0: the first). */
  notificationGroups: (before: number) => ['/api/notifications', 'grouped', before] as const,
  user: (id: number) => ['/api/users', id] as const,
  following: (id: number) => ['/api/users', id, 'following'] as const,
  followers: (id: number) => ['/api/users', id, 'followers'] as const,
  post: (id: number) => ['/api/posts', id] as const,
  /** One page of a feed tab; read with its own fetcher (the query string is built from it). */
  feedPage: (tab: string, page: number) => ['/api/posts', 'feed', tab, page] as const,
  analyticsOverview: () => ['/api/analytics/overview'] as const,
  analyticsUserGrowth: () => ['/api/analytics/user-growth'] as const,
  analyticsEngagement: () => ['/api/analytics/engagement'] as const,
  analyticsActiveUsers: () => ['/api/analytics/active-users'] as const,
  /** The counts of the shell's Admin section; every admin action revalidates it. */
  adminSummary: () => ['/api/admin/summary'] as const,
} satisfies Record<string, (...args: never[]) => ApiKey>;
