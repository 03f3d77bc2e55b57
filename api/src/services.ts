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
import type { DomainEvent } from './domain-events';
import { createTransactions, type Transactions } from './platform/transactions';
import type { Models } from './models';

/**
 * `writes`: the app's transactions and their events (platform/transactions.ts): a write, the
 * counts it moves and the events that tell of it, committed together.
 */
export function createServices(models: Models, writes: Transactions<DomainEvent>) {
  const { transaction } = writes;
  const counters = createCounterService({ models });
  const notifications = createNotificationService({ models, counters, writes });
  const users = createUserService({ models, writes });
  const likes = createLikeService({ models, counters, writes });
  const reposts = createRepostService({ models, counters });
  const follows = createFollowService({ models, counters, notifications, users, writes });
  const comments = createCommentService({ models, counters, likes, writes });
  const posts = createPostService({
    models,
    writes,
    comments,
    counters,
    follows,
    likes,
    notifications,
    reposts,
  });
  const feedback = createFeedbackService({ models, counters, notifications, writes });
  // Admin operations (issue 18).
  const accountApplications = createAccountApplicationService({
    models,
    counters,
    notifications,
    writes,
  });
  const invitations = createInvitationService({ models, counters, writes });
  const adminAccounts = createAdminAccounts({ models, writes });
  const audit = createAuditService({ models, counters });
  const reports = createReportService({ models, counters, writes, posts, comments, users });
  const admin = createAdminService({
    transaction,
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
      writes,
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
    auth: createAuthService({ counters, users, invitations, adminAccounts, transaction }),
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
    settings: createSettingService({ models, counters, writes }),
    users,
  };
}

export type Services = ReturnType<typeof createServices>;

/**
 * The transactions of a script that writes with no app of its own (the seed, provisioning the
 * administrator, the benchmarks' data): its events go to the outbox, for the API processes
 * running to hear.
 */
export function createScriptWrites(models: Models): Transactions<DomainEvent> {
  return createTransactions<DomainEvent>({
    connection: models.User.db,
    Outbox: models.Outbox,
    origin: 'script',
    deliver: () => undefined,
  });
}

/** The services of such a script. */
export function createScriptServices(models: Models): Services {
  return createServices(models, createScriptWrites(models));
}
