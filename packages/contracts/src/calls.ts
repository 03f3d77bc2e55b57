import type { z } from 'zod';
import {
  accountApplicationRequestSchema,
  accountApplicationResponseSchema,
} from './account-applications';
import {
  adminApplicationListSchema,
  adminApplicationsQuerySchema,
  adminFeedbackListSchema,
  adminFeedbackQuerySchema,
  adminFeedbackSchema,
  adminFeedbackUpdateSchema,
  adminMailListSchema,
  adminMailSchema,
  adminPageQuerySchema,
  adminSummarySchema,
  adminUserListSchema,
  adminUserSchema,
  adminUsersQuerySchema,
  approveApplicationResponseSchema,
  auditListSchema,
  auditQuerySchema,
  invitationResponseSchema,
  rejectApplicationRequestSchema,
  rejectApplicationResponseSchema,
  suspendUserRequestSchema,
} from './admin';
import {
  adminAppealListSchema,
  adminAppealSchema,
  adminAppealsQuerySchema,
  appealRequestSchema,
  decideAppealRequestSchema,
  memberAppealSchema,
  suspensionAppealRequestSchema,
} from './appeals';
import {
  activeUsersSchema,
  analyticsOverviewSchema,
  engagementSchema,
  userGrowthSchema,
} from './analytics';
import {
  authMeResponseSchema,
  changePasswordRequestSchema,
  changePasswordResponseSchema,
  deleteAccountRequestSchema,
  emailOnlyRequestSchema,
  loginRequestSchema,
  loginResponseSchema,
  messageResponseSchema,
  noContentResponseSchema,
  registerRequestSchema,
  registerResponseSchema,
  registrationRulesSchema,
  resetLinkStatusSchema,
  resetPasswordRequestSchema,
  verifyResponseSchema,
  verifyWithPasswordRequestSchema,
} from './auth';
import {
  callRoutes,
  callSignature,
  type CallName,
  type CallRoute,
  type CallRoutes,
  type CallSignature,
} from './call-routes';
import {
  emptyRequestSchema,
  idPathParamsSchema,
  noPathParamsSchema,
  tokenPathParamsSchema,
} from './common';
import {
  bookmarkResponseSchema,
  cursorQuerySchema,
  followedTagsSchema,
  mentionSuggestionsQuerySchema,
  mentionSuggestionsSchema,
  postPageSchema,
  postSearchQuerySchema,
  tagFollowResponseSchema,
  tagPageSchema,
  tagPathParamsSchema,
  tagSearchQuerySchema,
  tagSearchResultSchema,
  trendingTagsSchema,
} from './discovery';
import { feedbackRequestSchema, feedbackResponseSchema } from './feedback';
import { sessionIdPathParamsSchema, sessionListSchema } from './sessions';
import {
  markAllReadResponseSchema,
  markNotificationsReadRequestSchema,
  notificationGroupPageSchema,
  notificationGroupsQuerySchema,
  notificationListSchema,
  notificationPlainListQuerySchema,
  notificationReadResponseSchema,
} from './notifications';
import {
  commentPageQuerySchema,
  commentPageSchema,
  commentSchema,
  createCommentSchema,
  createPostSchema,
  deletePostResponseSchema,
  feedQuerySchema,
  likeResponseSchema,
  postDetailSchema,
  postListSchema,
  postSchema,
  repostSchema,
  undoRepostResponseSchema,
} from './posts';
import {
  contentVersionListSchema,
  deleteCommentResponseSchema,
  editCommentSchema,
  editPostSchema,
} from './own-words';
import { profileSchema } from './profile';
import {
  adminReportListSchema,
  adminReportSchema,
  adminReportsQuerySchema,
  reportRequestSchema,
  reportResponseSchema,
  resolveReportRequestSchema,
} from './reports';
import {
  blockResponseSchema,
  mutedWordRequestSchema,
  mutedWordSchema,
  muteRequestSchema,
  muteResponseSchema,
  safetyListsSchema,
} from './safety';
import { settingsSchema } from './settings';
import { AVATAR_FIELD, avatarUploadResponseSchema } from './uploads';
import { MEDIA_FIELD, mediaUploadResponseSchema } from './media';
import {
  followToggleResponseSchema,
  profileUpdateSchema,
  publicUserSchema,
  userListSchema,
  userSearchQuerySchema,
  userSearchResultSchema,
  userSuggestionListSchema,
} from './users';

/** A body sent as multipart/form-data, its one file in `field` (the avatar upload), not JSON. */
export interface MultipartBody<F extends string = string> {
  readonly multipart: true;
  readonly field: F;
}

/** What a call reads and answers, as the API validates it. */
export interface CallSchemas {
  /** The path parameters (`{ id }` of `/api/posts/:id`; an empty object when there are none). */
  readonly params: z.ZodType<Record<string, unknown>>;
  /** The query string, when the call reads one. */
  readonly query?: z.ZodType<Record<string, unknown>>;
  /** The request body, when the call reads one. */
  readonly body?: z.ZodType | MultipartBody;
  /** The body of a successful answer (spec §7); failures answer `errorResponseSchema`. */
  readonly response: z.ZodType;
}

/** One entry of the call table: where it goes (`CallRoute`) and what it reads and answers. */
export type Call = CallRoute & CallSchemas;

type Calls<S extends Record<CallName, CallSchemas>> = {
  readonly [N in CallName]: Readonly<CallRoutes[N] & S[N]>;
};

/** Adds each route's schemas to it: one plain frozen object per call, every route given some. */
function defineCalls<S extends Record<CallName, CallSchemas>>(schemas: S): Calls<S> {
  const entries = Object.values(callRoutes).map((route) => [
    route.name,
    Object.freeze({ ...route, ...schemas[route.name] }),
  ]);
  return Object.freeze(Object.fromEntries(entries)) as Calls<S>;
}

const noParams = noPathParamsSchema;
const id = idPathParamsSchema;
const token = tokenPathParamsSchema;
const noContent = noContentResponseSchema;
const avatar: MultipartBody<typeof AVATAR_FIELD> = Object.freeze({
  multipart: true,
  field: AVATAR_FIELD,
});
const image: MultipartBody<typeof MEDIA_FIELD> = Object.freeze({
  multipart: true,
  field: MEDIA_FIELD,
});

/**
 * The call table (issue 34): every JSON call of the API by a stable name, each with its route
 * (call-routes.ts: method, router path, success status, query discriminator) and the schemas of
 * its path parameters, query, body and answer, exactly as the API validates them. A call with no
 * `body` reads none; with no `query`, reads no query string. Clients call through it
 * (`callApi(callRoutes.likePost, { params: { id } })` in @campus/kit/api; call-types.ts), and
 * the API's routes can be registered from `allCalls`.
 */
export const calls = defineCalls({
  register: { params: noParams, body: registerRequestSchema, response: registerResponseSchema },
  login: { params: noParams, body: loginRequestSchema, response: loginResponseSchema },
  verifyEmail: { params: token, response: verifyResponseSchema },
  verifyEmailWithPassword: {
    params: token,
    body: verifyWithPasswordRequestSchema,
    response: verifyResponseSchema,
  },
  me: { params: noParams, response: authMeResponseSchema },
  registrationRules: { params: noParams, response: registrationRulesSchema },
  resetLinkStatus: { params: token, response: resetLinkStatusSchema },
  forgotPassword: {
    params: noParams,
    body: emailOnlyRequestSchema,
    response: messageResponseSchema,
  },
  resetPassword: {
    params: noParams,
    body: resetPasswordRequestSchema,
    response: messageResponseSchema,
  },
  resendVerification: {
    params: noParams,
    body: emailOnlyRequestSchema,
    response: messageResponseSchema,
  },
  changePassword: {
    params: noParams,
    body: changePasswordRequestSchema,
    response: changePasswordResponseSchema,
  },
  signOutEverywhere: { params: noParams, response: noContent },
  refreshSession: { params: noParams, response: noContent },
  signOut: { params: noParams, response: noContent },
  sessions: { params: noParams, response: sessionListSchema },
  endSession: { params: sessionIdPathParamsSchema, response: noContent },
  applyForAccount: {
    params: noParams,
    body: accountApplicationRequestSchema,
    response: accountApplicationResponseSchema,
  },
  invitation: { params: token, response: invitationResponseSchema },
  settings: { params: noParams, response: settingsSchema },

  searchUsers: { params: noParams, query: userSearchQuerySchema, response: userSearchResultSchema },
  userSuggestions: { params: noParams, response: userSuggestionListSchema },
  mentionSuggestions: {
    params: noParams,
    query: mentionSuggestionsQuerySchema,
    response: mentionSuggestionsSchema,
  },
  profile: { params: id, response: profileSchema },
  updateProfile: { params: id, body: profileUpdateSchema, response: publicUserSchema },
  deleteAccount: { params: id, body: deleteAccountRequestSchema, response: noContent },
  toggleFollow: { params: id, body: emptyRequestSchema, response: followToggleResponseSchema },
  following: { params: id, response: userListSchema },
  followers: { params: id, response: userListSchema },
  uploadAvatar: { params: noParams, body: avatar, response: avatarUploadResponseSchema },
  uploadMedia: { params: noParams, body: image, response: mediaUploadResponseSchema },
  sendFeedback: { params: noParams, body: feedbackRequestSchema, response: feedbackResponseSchema },
  sendReport: { params: noParams, body: reportRequestSchema, response: reportResponseSchema },
  safetyLists: { params: noParams, response: safetyListsSchema },
  addMutedWord: { params: noParams, body: mutedWordRequestSchema, response: mutedWordSchema },
  removeMutedWord: { params: id, response: noContent },
  blockMember: { params: id, body: emptyRequestSchema, response: blockResponseSchema },
  unblockMember: { params: id, response: blockResponseSchema },
  muteMember: { params: id, body: muteRequestSchema, response: muteResponseSchema },
  unmuteMember: { params: id, response: muteResponseSchema },
  fileAppeal: { params: noParams, body: appealRequestSchema, response: memberAppealSchema },
  appealSuspension: {
    params: noParams,
    body: suspensionAppealRequestSchema,
    response: memberAppealSchema,
  },

  feed: { params: noParams, query: feedQuerySchema, response: postListSchema },
  createPost: { params: noParams, body: createPostSchema, response: postSchema },
  post: { params: id, response: postDetailSchema },
  deletePost: { params: id, response: deletePostResponseSchema },
  commentPage: { params: id, query: commentPageQuerySchema, response: commentPageSchema },
  addComment: { params: id, body: createCommentSchema, response: commentSchema },
  likePost: { params: id, response: likeResponseSchema },
  repost: { params: id, body: repostSchema, response: postSchema },
  undoRepost: { params: id, response: undoRepostResponseSchema },
  likeComment: { params: id, response: likeResponseSchema },
  editPost: { params: id, body: editPostSchema, response: postSchema },
  postVersions: { params: id, response: contentVersionListSchema },
  editComment: { params: id, body: editCommentSchema, response: commentSchema },
  deleteComment: { params: id, response: deleteCommentResponseSchema },
  commentVersions: { params: id, response: contentVersionListSchema },

  searchPosts: { params: noParams, query: postSearchQuerySchema, response: postPageSchema },
  searchTags: { params: noParams, query: tagSearchQuerySchema, response: tagSearchResultSchema },
  trendingTags: { params: noParams, response: trendingTagsSchema },
  followedTags: { params: noParams, response: followedTagsSchema },
  tagPage: { params: tagPathParamsSchema, query: cursorQuerySchema, response: tagPageSchema },
  followTag: {
    params: tagPathParamsSchema,
    body: emptyRequestSchema,
    response: tagFollowResponseSchema,
  },
  unfollowTag: { params: tagPathParamsSchema, response: tagFollowResponseSchema },
  bookmarkPost: { params: id, body: emptyRequestSchema, response: bookmarkResponseSchema },
  unbookmarkPost: { params: id, response: bookmarkResponseSchema },
  bookmarks: { params: noParams, query: cursorQuerySchema, response: postPageSchema },

  notifications: {
    params: noParams,
    query: notificationPlainListQuerySchema,
    response: notificationListSchema,
  },
  notificationGroups: {
    params: noParams,
    query: notificationGroupsQuerySchema,
    response: notificationGroupPageSchema,
  },
  markAllNotificationsRead: { params: noParams, response: markAllReadResponseSchema },
  markNotificationsRead: {
    params: noParams,
    body: markNotificationsReadRequestSchema,
    response: markAllReadResponseSchema,
  },
  markNotificationRead: { params: id, response: notificationReadResponseSchema },

  analyticsOverview: { params: noParams, response: analyticsOverviewSchema },
  analyticsUserGrowth: { params: noParams, response: userGrowthSchema },
  analyticsEngagement: { params: noParams, response: engagementSchema },
  analyticsActiveUsers: { params: noParams, response: activeUsersSchema },
  adminSummary: { params: noParams, response: adminSummarySchema },
  adminApplications: {
    params: noParams,
    query: adminApplicationsQuerySchema,
    response: adminApplicationListSchema,
  },
  approveApplication: {
    params: id,
    body: emptyRequestSchema,
    response: approveApplicationResponseSchema,
  },
  rejectApplication: {
    params: id,
    body: rejectApplicationRequestSchema,
    response: rejectApplicationResponseSchema,
  },
  adminFeedback: {
    params: noParams,
    query: adminFeedbackQuerySchema,
    response: adminFeedbackListSchema,
  },
  updateFeedback: { params: id, body: adminFeedbackUpdateSchema, response: adminFeedbackSchema },
  adminMembers: { params: noParams, query: adminUsersQuerySchema, response: adminUserListSchema },
  suspendMember: { params: id, body: suspendUserRequestSchema, response: adminUserSchema },
  reactivateMember: { params: id, body: emptyRequestSchema, response: adminUserSchema },
  adminReports: {
    params: noParams,
    query: adminReportsQuerySchema,
    response: adminReportListSchema,
  },
  resolveReport: { params: id, body: resolveReportRequestSchema, response: adminReportSchema },
  adminAppeals: {
    params: noParams,
    query: adminAppealsQuerySchema,
    response: adminAppealListSchema,
  },
  decideAppeal: { params: id, body: decideAppealRequestSchema, response: adminAppealSchema },
  auditLog: { params: noParams, query: auditQuerySchema, response: auditListSchema },
  adminMail: { params: noParams, query: adminPageQuerySchema, response: adminMailListSchema },
  retryMail: { params: id, body: emptyRequestSchema, response: adminMailSchema },
});

export type CallTable = typeof calls;
/** Any entry of the table. */
export type AnyCall = CallTable[CallName];

/**
 * Every call, in the table's order (the order a router registers them in: call-routes.ts), each
 * as the general `Call` a registrar reads (`call.query?.parse(...)`); `calls.x` keeps its types.
 */
export const allCalls: readonly Call[] = Object.freeze(Object.values(calls));

/**
 * The answer schema of every call by its signature (`'GET /api/auth/me'`, `'GET
 * /api/notifications?grouped=true'`), derived from the table: the API's tests check every route
 * against it on real responses.
 */
export const responseSchemas = Object.freeze(
  Object.fromEntries(allCalls.map((call) => [callSignature(call), call.response])),
) as { readonly [N in CallName as CallSignature<CallTable[N]>]: CallTable[N]['response'] };
export type ApiCall = keyof typeof responseSchemas;
