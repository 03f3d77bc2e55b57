/**
 * Every module's service, built on one app's models: each module gets the models it owns and
 * the services of the modules it uses (never another module's model), in dependency order.
 * `createApp` builds them once and hands each route factory the services it calls; tests,
 * the seed and the benchmarks use the same object (`app.services`).
 */
import { createAccountApplicationService } from './modules/account-applications/service';
import { createAdminService } from './modules/admin/service';
import { createAuditService } from './modules/audit/service';
import { createInvitationService } from './modules/invitations/service';
import { createReportService } from './modules/reports/service';
import { createAdminAccounts } from './modules/users/admin-accounts';
import { createAccountLifecycleService } from './modules/account-lifecycle/service';
import { createAnalyticsService } from './modules/analytics/service';
import { createAuthService } from './modules/auth/service';
import { createCommentService } from './modules/comments/service';
import { atomicallyOn } from './modules/counters/atomic';
import { createCounterService } from './modules/counters/service';
import { createFeedbackService } from './modules/feedback/service';
import { createFollowService } from './modules/follows/service';
import { createLikeService } from './modules/likes/service';
import { createNotificationService } from './modules/notifications/service';
import { createPostService } from './modules/posts/service';
import { createProfileService } from './modules/profiles/service';
import { createRepostService } from './modules/reposts/service';
import { createSettingService } from './modules/settings/service';
import { createPeopleService } from './modules/users/people';
import { createUserService } from './modules/users/service';
import type { Models } from './models';

export function createServices(models: Models) {
  const counters = createCounterService({ models });
  // A write and the counts it moves, in one transaction (modules/counters/atomic.ts).
  const atomically = atomicallyOn(models.User.db);
  const notifications = createNotificationService({ models, counters });
  const users = createUserService({ models });
  const likes = createLikeService({ models, counters, atomically });
  const reposts = createRepostService({ models, counters });
  const follows = createFollowService({ models, counters, notifications, users, atomically });
  const comments = createCommentService({ models, counters, likes });
  const posts = createPostService({
    models,
    atomically,
    comments,
    counters,
    follows,
    likes,
    notifications,
    reposts,
  });
  const feedback = createFeedbackService({ models, counters, notifications });
  // Admin operations (issue 18).
  const accountApplications = createAccountApplicationService({ models, counters, notifications });
  const invitations = createInvitationService({ models, counters });
  const adminAccounts = createAdminAccounts({ models });
  const audit = createAuditService({ models, counters });
  const reports = createReportService({ models, counters, atomically, posts, comments, users });
  const admin = createAdminService({
    atomically,
    applications: accountApplications,
    invitations,
    feedback,
    accounts: adminAccounts,
    posts,
    comments,
    reports,
    audit,
    notify: {
      contentRemoved: (authorId, input) => notifications.notify('content_removed', authorId, input),
    },
  });
  return {
    accountLifecycle: createAccountLifecycleService({
      // The same transactions as every count-moving write: conflicts retried, a lost database 503.
      transaction: atomically,
      users,
      posts,
      comments,
      likes,
      reposts,
      follows,
      notifications,
      feedback,
    }),
    accountApplications,
    admin,
    adminAccounts,
    audit,
    invitations,
    reports,
    analytics: createAnalyticsService({ comments, follows, likes, posts, users }),
    auth: createAuthService({ counters, users, invitations, adminAccounts, atomically }),
    comments,
    counters,
    feedback,
    follows,
    likes,
    notifications,
    people: createPeopleService({ models, follows }),
    posts,
    profiles: createProfileService({ follows, posts, users }),
    reposts,
    settings: createSettingService({ models, counters }),
    users,
  };
}

export type Services = ReturnType<typeof createServices>;
