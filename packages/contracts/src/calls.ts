import { accountApplicationResponseSchema } from './account-applications';
import {
  adminApplicationListSchema,
  adminFeedbackListSchema,
  adminFeedbackSchema,
  adminSummarySchema,
  adminUserListSchema,
  adminUserSchema,
  approveApplicationResponseSchema,
  auditListSchema,
  invitationResponseSchema,
  rejectApplicationResponseSchema,
} from './admin';
import { adminReportListSchema, adminReportSchema, reportResponseSchema } from './reports';
import {
  activeUsersSchema,
  analyticsOverviewSchema,
  engagementSchema,
  userGrowthSchema,
} from './analytics';
import {
  authMeResponseSchema,
  changePasswordResponseSchema,
  loginResponseSchema,
  messageResponseSchema,
  noContentResponseSchema,
  registerResponseSchema,
  verifyResponseSchema,
} from './auth';
import { feedbackResponseSchema } from './feedback';
import {
  markAllReadResponseSchema,
  notificationGroupPageSchema,
  notificationListSchema,
  notificationReadResponseSchema,
} from './notifications';
import {
  commentSchema,
  deletePostResponseSchema,
  likeResponseSchema,
  postDetailSchema,
  commentPageSchema,
  postListSchema,
  postSchema,
  undoRepostResponseSchema,
} from './posts';
import { profileSchema } from './profile';
import { settingsSchema } from './settings';
import { avatarUploadResponseSchema } from './uploads';
import {
  followToggleResponseSchema,
  publicUserSchema,
  userListSchema,
  userSearchResultSchema,
  userSuggestionListSchema,
} from './users';

/**
 * The response body of every JSON call of the API (spec §7), by `METHOD path` exactly as the API
 * routes it. Any failure answers `errorResponseSchema` instead (`verify` adds `error`). The API's
 * tests hold every route to this table, and every entry to a real response.
 */
export const responseSchemas = {
  'POST /api/auth/register': registerResponseSchema,
  'POST /api/auth/login': loginResponseSchema,
  'GET /api/auth/verify/:token': verifyResponseSchema,
  'GET /api/auth/me': authMeResponseSchema,
  'POST /api/auth/forgot-password': messageResponseSchema,
  'POST /api/auth/reset-password': messageResponseSchema,
  'POST /api/auth/resend-verification': messageResponseSchema,
  'PUT /api/auth/password': changePasswordResponseSchema,
  'POST /api/auth/logout-all': noContentResponseSchema,
  'DELETE /api/users/:id': noContentResponseSchema,
  'GET /api/users/:id': profileSchema,
  'PUT /api/users/:id': publicUserSchema,
  'POST /api/users/:id/follow': followToggleResponseSchema,
  'GET /api/users/:id/following': userListSchema,
  'GET /api/users/:id/followers': userListSchema,
  'POST /api/upload/avatar': avatarUploadResponseSchema,
  'POST /api/feedback': feedbackResponseSchema,
  'POST /api/account-application': accountApplicationResponseSchema,
  'GET /api/settings': settingsSchema,
  'GET /api/posts': postListSchema,
  'POST /api/posts': postSchema,
  'GET /api/posts/:id': postDetailSchema,
  'GET /api/posts/:id/comments': commentPageSchema,
  'DELETE /api/posts/:id': deletePostResponseSchema,
  'POST /api/posts/:id/like': likeResponseSchema,
  'POST /api/posts/:id/repost': postSchema,
  'DELETE /api/posts/:id/repost': undoRepostResponseSchema,
  'POST /api/posts/:id/comments': commentSchema,
  'POST /api/comments/:id/like': likeResponseSchema,
  'GET /api/notifications': notificationListSchema,
  'PUT /api/notifications/read-all': markAllReadResponseSchema,
  'PUT /api/notifications/:id/read': notificationReadResponseSchema,
  'GET /api/notifications?grouped=true': notificationGroupPageSchema,
  'PUT /api/notifications/read': markAllReadResponseSchema,
  'GET /api/users': userSearchResultSchema,
  'GET /api/users/suggestions': userSuggestionListSchema,
  'GET /api/analytics/overview': analyticsOverviewSchema,
  'GET /api/analytics/user-growth': userGrowthSchema,
  'GET /api/analytics/engagement': engagementSchema,
  'GET /api/analytics/active-users': activeUsersSchema,
  'GET /api/invitations/:token': invitationResponseSchema,
  'POST /api/reports': reportResponseSchema,
  'GET /api/admin/summary': adminSummarySchema,
  'GET /api/admin/applications': adminApplicationListSchema,
  'POST /api/admin/applications/:id/approve': approveApplicationResponseSchema,
  'POST /api/admin/applications/:id/reject': rejectApplicationResponseSchema,
  'GET /api/admin/feedback': adminFeedbackListSchema,
  'PUT /api/admin/feedback/:id': adminFeedbackSchema,
  'GET /api/admin/users': adminUserListSchema,
  'POST /api/admin/users/:id/suspend': adminUserSchema,
  'POST /api/admin/users/:id/reactivate': adminUserSchema,
  'GET /api/admin/reports': adminReportListSchema,
  'POST /api/admin/reports/:id/resolve': adminReportSchema,
  'GET /api/admin/audit': auditListSchema,
} as const;
export type ApiCall = keyof typeof responseSchemas;
