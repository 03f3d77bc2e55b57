// The call table's zod-free half: every JSON call's name, method, path and success status. This
// file imports nothing, so a client that only needs where a call goes (the kit's api client, an
// SWR key) costs its page no zod; calls.ts adds each call's schemas to these entries.

export type CallMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** The status of a successful answer (202: accepted, an e-mail may follow; 204: no body). */
export type CallStatus = 200 | 201 | 202 | 204;

/** Where a call goes and what success answers, without its schemas (calls.ts has those). */
export interface CallRoute {
  /** Its key in the table (`likePost`): stable, camelCase. */
  readonly name: string;
  readonly method: CallMethod;
  /** As @koa/router writes it, `/api/posts/:id`; `callPath` fills in the parameters. */
  readonly path: string;
  readonly status: CallStatus;
  /**
   * One query parameter and its value that select this call among the calls on the same method
   * and path (`{ grouped: 'true' }`: the grouped notifications). A client always sends it; a call
   * on that method and path without one answers when the parameter has any other value.
   */
  readonly discriminator?: Readonly<Record<string, string>>;
}

type RouteFields = Omit<CallRoute, 'name'>;
type Routes<T extends Record<string, RouteFields>> = {
  readonly [N in keyof T & string]: Readonly<{ name: N } & T[N]>;
};

/** Names each entry after its key and freezes it (a plain frozen object per call). */
function defineRoutes<const T extends Record<string, RouteFields>>(fields: T): Routes<T> {
  const entries = Object.entries(fields).map(([name, route]) => [
    name,
    Object.freeze({ name, ...route }),
  ]);
  return Object.freeze(Object.fromEntries(entries)) as Routes<T>;
}

/**
 * Every JSON call of the API (spec §7), in an order a router can register them in: on one method,
 * a literal path comes before a parameter that would match it (`/api/users/suggestions` before
 * `/api/users/:id`). `GET /api/stream` is not here: it answers an event stream, not JSON.
 */
export const callRoutes = defineRoutes({
  // Accounts.
  register: { method: 'POST', path: '/api/auth/register', status: 201 },
  login: { method: 'POST', path: '/api/auth/login', status: 200 },
  verifyEmail: { method: 'GET', path: '/api/auth/verify/:token', status: 200 },
  verifyEmailWithPassword: { method: 'POST', path: '/api/auth/verify/:token', status: 200 },
  me: { method: 'GET', path: '/api/auth/me', status: 200 },
  registrationRules: { method: 'GET', path: '/api/auth/registration-rules', status: 200 },
  resetLinkStatus: { method: 'GET', path: '/api/auth/reset-password/:token', status: 200 },
  forgotPassword: { method: 'POST', path: '/api/auth/forgot-password', status: 202 },
  resetPassword: { method: 'POST', path: '/api/auth/reset-password', status: 200 },
  resendVerification: { method: 'POST', path: '/api/auth/resend-verification', status: 202 },
  changePassword: { method: 'PUT', path: '/api/auth/password', status: 200 },
  signOutEverywhere: { method: 'POST', path: '/api/auth/logout-all', status: 204 },
  refreshSession: { method: 'POST', path: '/api/auth/refresh', status: 204 },
  signOut: { method: 'POST', path: '/api/auth/logout', status: 204 },
  sessions: { method: 'GET', path: '/api/auth/sessions', status: 200 },
  endSession: { method: 'DELETE', path: '/api/auth/sessions/:id', status: 204 },
  applyForAccount: { method: 'POST', path: '/api/account-application', status: 201 },
  invitation: { method: 'GET', path: '/api/invitations/:token', status: 200 },
  settings: { method: 'GET', path: '/api/settings', status: 200 },

  // Members.
  searchUsers: { method: 'GET', path: '/api/users', status: 200 },
  userSuggestions: { method: 'GET', path: '/api/users/suggestions', status: 200 },
  mentionSuggestions: { method: 'GET', path: '/api/users/mention-suggestions', status: 200 },
  profile: { method: 'GET', path: '/api/users/:id', status: 200 },
  updateProfile: { method: 'PUT', path: '/api/users/:id', status: 200 },
  deleteAccount: { method: 'DELETE', path: '/api/users/:id', status: 204 },
  toggleFollow: { method: 'POST', path: '/api/users/:id/follow', status: 200 },
  following: { method: 'GET', path: '/api/users/:id/following', status: 200 },
  followers: { method: 'GET', path: '/api/users/:id/followers', status: 200 },
  uploadAvatar: { method: 'POST', path: '/api/upload/avatar', status: 201 },
  uploadMedia: { method: 'POST', path: '/api/media', status: 201 },
  sendFeedback: { method: 'POST', path: '/api/feedback', status: 201 },
  sendReport: { method: 'POST', path: '/api/reports', status: 201 },
  // Privacy and safety (issue 38): block, mute, muted words.
  safetyLists: { method: 'GET', path: '/api/safety', status: 200 },
  addMutedWord: { method: 'POST', path: '/api/safety/muted-words', status: 201 },
  removeMutedWord: { method: 'DELETE', path: '/api/safety/muted-words/:id', status: 204 },
  blockMember: { method: 'POST', path: '/api/users/:id/block', status: 200 },
  unblockMember: { method: 'DELETE', path: '/api/users/:id/block', status: 200 },
  muteMember: { method: 'POST', path: '/api/users/:id/mute', status: 200 },
  unmuteMember: { method: 'DELETE', path: '/api/users/:id/mute', status: 200 },
  // Appeals (issue 38): a removal by its signed-in author, a suspension from the sign-in page.
  fileAppeal: { method: 'POST', path: '/api/appeals', status: 201 },
  appealSuspension: { method: 'POST', path: '/api/appeals/suspension', status: 201 },

  // Posts and comments.
  feed: { method: 'GET', path: '/api/posts', status: 200 },
  createPost: { method: 'POST', path: '/api/posts', status: 201 },
  post: { method: 'GET', path: '/api/posts/:id', status: 200 },
  deletePost: { method: 'DELETE', path: '/api/posts/:id', status: 200 },
  commentPage: { method: 'GET', path: '/api/posts/:id/comments', status: 200 },
  addComment: { method: 'POST', path: '/api/posts/:id/comments', status: 201 },
  likePost: { method: 'POST', path: '/api/posts/:id/like', status: 200 },
  repost: { method: 'POST', path: '/api/posts/:id/repost', status: 201 },
  undoRepost: { method: 'DELETE', path: '/api/posts/:id/repost', status: 200 },
  likeComment: { method: 'POST', path: '/api/comments/:id/like', status: 200 },
  // Your own words: edits (each keeps a version) and deleting your own comments.
  editPost: { method: 'PUT', path: '/api/posts/:id', status: 200 },
  postVersions: { method: 'GET', path: '/api/posts/:id/versions', status: 200 },
  editComment: { method: 'PUT', path: '/api/comments/:id', status: 200 },
  deleteComment: { method: 'DELETE', path: '/api/comments/:id', status: 200 },
  commentVersions: { method: 'GET', path: '/api/comments/:id/versions', status: 200 },

  // Find and be found (issue 40): post search, tags, bookmarks.
  searchPosts: { method: 'GET', path: '/api/search/posts', status: 200 },
  searchTags: { method: 'GET', path: '/api/search/tags', status: 200 },
  trendingTags: { method: 'GET', path: '/api/tags/trending', status: 200 },
  followedTags: { method: 'GET', path: '/api/tags/followed', status: 200 },
  tagPage: { method: 'GET', path: '/api/tags/:tag', status: 200 },
  followTag: { method: 'POST', path: '/api/tags/:tag/follow', status: 200 },
  unfollowTag: { method: 'DELETE', path: '/api/tags/:tag/follow', status: 200 },
  bookmarkPost: { method: 'POST', path: '/api/posts/:id/bookmark', status: 200 },
  unbookmarkPost: { method: 'DELETE', path: '/api/posts/:id/bookmark', status: 200 },
  bookmarks: { method: 'GET', path: '/api/bookmarks', status: 200 },

  // Notifications: one path, two answers (the plain list, or a page of groups).
  notifications: { method: 'GET', path: '/api/notifications', status: 200 },
  notificationGroups: {
    method: 'GET',
    path: '/api/notifications',
    status: 200,
    discriminator: { grouped: 'true' },
  },
  markAllNotificationsRead: { method: 'PUT', path: '/api/notifications/read-all', status: 200 },
  markNotificationsRead: { method: 'PUT', path: '/api/notifications/read', status: 200 },
  markNotificationRead: { method: 'PUT', path: '/api/notifications/:id/read', status: 200 },

  // The administrator: analytics, then the admin queues.
  analyticsOverview: { method: 'GET', path: '/api/analytics/overview', status: 200 },
  analyticsUserGrowth: { method: 'GET', path: '/api/analytics/user-growth', status: 200 },
  analyticsEngagement: { method: 'GET', path: '/api/analytics/engagement', status: 200 },
  analyticsActiveUsers: { method: 'GET', path: '/api/analytics/active-users', status: 200 },
  adminSummary: { method: 'GET', path: '/api/admin/summary', status: 200 },
  adminApplications: { method: 'GET', path: '/api/admin/applications', status: 200 },
  approveApplication: {
    method: 'POST',
    path: '/api/admin/applications/:id/approve',
    status: 200,
  },
  rejectApplication: { method: 'POST', path: '/api/admin/applications/:id/reject', status: 200 },
  adminFeedback: { method: 'GET', path: '/api/admin/feedback', status: 200 },
  updateFeedback: { method: 'PUT', path: '/api/admin/feedback/:id', status: 200 },
  adminMembers: { method: 'GET', path: '/api/admin/users', status: 200 },
  suspendMember: { method: 'POST', path: '/api/admin/users/:id/suspend', status: 200 },
  reactivateMember: { method: 'POST', path: '/api/admin/users/:id/reactivate', status: 200 },
  adminReports: { method: 'GET', path: '/api/admin/reports', status: 200 },
  resolveReport: { method: 'POST', path: '/api/admin/reports/:id/resolve', status: 200 },
  adminAppeals: { method: 'GET', path: '/api/admin/appeals', status: 200 },
  decideAppeal: { method: 'POST', path: '/api/admin/appeals/:id/decide', status: 200 },
  auditLog: { method: 'GET', path: '/api/admin/audit', status: 200 },
  adminMail: { method: 'GET', path: '/api/admin/mail', status: 200 },
  retryMail: { method: 'POST', path: '/api/admin/mail/:id/retry', status: 200 },
});

export type CallRoutes = typeof callRoutes;
export type CallName = keyof CallRoutes;
/** The route of any call of the table. */
export type AnyCallRoute = CallRoutes[CallName];

/** The parameter names of a router path: `'/api/users/:id/follow'` → `'id'`. */
export type PathParamName<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamName<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The values a path's parameters take, as a client holds them (ids as numbers). */
export type PathParams<P extends string> = { readonly [K in PathParamName<P>]: string | number };

const PARAM = /:([A-Za-z_][A-Za-z0-9_]*)/g;

/** The names of a router path's parameters, in order: `/api/users/:id/follow` → `['id']`. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(PARAM)].map((match) => match[1]!);
}

/**
 * The concrete path of a call: each `:name` of its path replaced by that parameter, URI-encoded
 * (`callPath(callRoutes.likePost, { id: 12 })` → `/api/posts/12/like`). A missing or empty
 * parameter is an error rather than a path to somewhere else.
 */
export function callPath<P extends string>(
  route: { readonly name?: string; readonly path: P },
  params: PathParams<P>,
): string {
  const values = params as Readonly<Record<string, string | number | undefined>>;
  return route.path.replace(PARAM, (_match, name: string) => {
    const value = values[name];
    if (value === undefined || value === null || value === '') {
      throw new TypeError(`${route.name ?? route.path}: no value for the path parameter :${name}`);
    }
    return encodeURIComponent(String(value));
  });
}

/** `METHOD path`, with its discriminator as a query string: `GET /api/notifications?grouped=true`. */
export type CallSignature<R extends CallRoute> = `${R['method']} ${R['path']}${R extends {
  readonly discriminator: infer D extends Readonly<Record<string, string>>;
}
  ? `?${{ [K in keyof D & string]: `${K}=${D[K]}` }[keyof D & string]}`
  : ''}`;

/** How the API's tests and logs name a call (`CallSignature`): unique in the table. */
export function callSignature<R extends CallRoute>(route: R): CallSignature<R> {
  const query = new URLSearchParams(route.discriminator).toString();
  return `${route.method} ${route.path}${query ? `?${query}` : ''}` as CallSignature<R>;
}
