import { callRoutes, type AnyCallRoute } from '@campus/contracts';

/**
 * Every SWR key the apps use, named once. A key is the list of path parts; the default fetcher
 * GETs them joined with '/'. Apps that read the same key share one cache entry (the unread badge
 * in the shell and the notifications page, for instance).
 */
export type ApiKey = readonly [string, ...(string | number)[]];

/**
 * A key that reads one call of the table (@campus/contracts): its parts, typed with that call,
 * so that a hook reading it is typed by the call's response (`useCallData`). Only a type: at run
 * time a key is its parts, as before.
 */
export type CallKey<
  R extends AnyCallRoute = AnyCallRoute,
  Parts extends ApiKey = ApiKey,
> = Parts & {
  readonly '~call'?: R;
};

/** Types `parts` as a key of `route` (they are returned as they are). */
export function callKey<R extends AnyCallRoute, const Parts extends ApiKey>(
  _route: R,
  parts: Parts,
): CallKey<R, Parts> {
  return parts;
}

const routes = callRoutes;

export const keys = {
  settings: () => callKey(routes.settings, ['/api/settings']),
  notifications: () => callKey(routes.notifications, ['/api/notifications']),
  /** One page of grouped notifications; `before` is the previous page's cursor (0: the first). */
  notificationGroups: (before: number) =>
    callKey(routes.notificationGroups, ['/api/notifications', 'grouped', before]),
  user: (id: number) => callKey(routes.profile, ['/api/users', id]),
  following: (id: number) => callKey(routes.following, ['/api/users', id, 'following']),
  followers: (id: number) => callKey(routes.followers, ['/api/users', id, 'followers']),
  /** Who to follow (`GET /api/users/suggestions`). */
  userSuggestions: () => callKey(routes.userSuggestions, ['/api/users', 'suggestions']),
  /** One people search (`GET /api/users?q=`); read with its own fetcher (`q` is a query). */
  peopleSearch: (q: string) => callKey(routes.searchUsers, ['/api/users', 'search', q]),
  post: (id: number) => callKey(routes.post, ['/api/posts', id]),
  /** One page of a feed tab; read with its own fetcher (the query string is built from it). */
  feedPage: (tab: string, page: number) => callKey(routes.feed, ['/api/posts', 'feed', tab, page]),
  analyticsOverview: () => callKey(routes.analyticsOverview, ['/api/analytics/overview']),
  analyticsUserGrowth: () => callKey(routes.analyticsUserGrowth, ['/api/analytics/user-growth']),
  analyticsEngagement: () => callKey(routes.analyticsEngagement, ['/api/analytics/engagement']),
  analyticsActiveUsers: () => callKey(routes.analyticsActiveUsers, ['/api/analytics/active-users']),
  /** The member's blocks, mutes and muted words (Settings, `GET /api/safety`). */
  safety: () => callKey(routes.safetyLists, ['/api/safety']),
  /** The member's signed-in devices (Settings, `GET /api/auth/sessions`). */
  sessions: () => callKey(routes.sessions, ['/api/auth/sessions']),
  /** The counts of the shell's Admin section; every admin action revalidates it. */
  adminSummary: () => callKey(routes.adminSummary, ['/api/admin/summary']),
} satisfies Record<string, (...args: never[]) => CallKey>;
