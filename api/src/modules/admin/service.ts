/**
 * The administrator's operations (issue 18), composed from the modules they act on: applications
 * and invitations, feedback, members, reports. Every action is written to the audit log in the
 * same transaction as its changes; e-mails go out after the commit.
 */
import {
  INVITATION_TTL_DAYS,
  type AdminApplication,
  type AdminFeedback,
  type AdminFeedbackUpdate,
  type AdminMemberRef,
  type AdminPage,
  type AdminReport,
  type AdminSummary,
  type AdminUser,
  type AdminUsersQuery,
  type ApplicationStatus,
  type ApproveApplicationResponse,
  type AuditEntry,
  type FeedbackStatus,
  type RejectApplicationResponse,
  type ReportAction,
  type ReportStatus,
} from '@campus/contracts';
import type { AuthUser } from '../../platform/auth';
import type { Transaction } from '../../platform/transactions';
import { badRequest } from '../../platform/errors';
import type { Mailer } from '../../platform/mailer';
import { toPublicFileUrl } from '../../platform/storage';
import {
  emailInContactInfo,
  type AccountApplicationService,
} from '../account-applications/service';
import type { AuditService } from '../audit/service';
import type { CommentService } from '../comments/service';
import type { FeedbackService } from '../feedback/service';
import type { InvitationService } from '../invitations/service';
import type { PostService } from '../posts/service';
import type { ReportService } from '../reports/service';
import {
  memberStatusOf,
  type AdminAccountFields,
  type AdminAccounts,
} from '../users/admin-accounts';
import { invitationEmail, rejectionEmail } from './emails';

// What the modules' services answer (this module never imports another module's model).
type AccountApplicationDoc = Awaited<ReturnType<AccountApplicationService['decideApplication']>>;
type FeedbackDoc = Awaited<ReturnType<FeedbackService['listFeedback']>>['items'][number];
type ReportCaseDoc = Awaited<ReturnType<ReportService['closeCase']>>;
type AccountRef = NonNullable<ReturnType<Awaited<ReturnType<AdminAccounts['accountRefs']>>['get']>>;

export const CANNOT_SUSPEND_YOURSELF = 'You cannot suspend your own account';
/** How much of removed content the author's notification and the audit log keep. */
const EXCERPT_LENGTH = 100;

export interface AdminOptions {
  adminUserId: number;
  webUrl: string;
  publicUrl: string;
  mailer: Mailer;
}

export interface AdminServiceDeps {
  transaction: Transaction;
  applications: AccountApplicationService;
  invitations: InvitationService;
  feedback: FeedbackService;
  accounts: AdminAccounts;
  posts: Pick<
    PostService,
    | 'setAuthorHidden'
    | 'postsForModeration'
    | 'removePostByModeration'
    | 'postIdsSharingComments'
    | 'recountPosts'
  >;
  comments: Pick<
    CommentService,
    'setAuthorHidden' | 'commentsForModeration' | 'removeCommentByModeration'
  >;
  reports: ReportService;
  audit: AuditService;
  notify: {
    contentRemoved(
      authorId: number,
      input: { targetType: 'post' | 'comment'; content: string },
    ): Promise<unknown>;
  };
}

type Page = { page: number; pageSize: number };
const window = ({ page, pageSize }: Page) => ({ skip: (page - 1) * pageSize, limit: pageSize });

function excerpt(text: string): string {
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH)}...` : text;
}

function toAdminApplication(doc: AccountApplicationDoc): AdminApplication {
  return {
    id: doc._id,
    name: doc.name,
    contactInfo: doc.contactInfo,
    message: doc.message,
    status: doc.status,
    email: emailInContactInfo(doc.contactInfo),
    createdAt: doc.createdAt.toISOString(),
    decidedAt: doc.decidedAt?.toISOString() ?? null,
    rejectionReason: doc.rejectionReason ?? null,
  };
}

export function createAdminService(deps: AdminServiceDeps) {
  const {
    transaction,
    applications,
    invitations,
    feedback,
    accounts,
    posts,
    comments,
    reports,
    audit,
  } = deps;

  function memberRef(user: AccountRef | undefined, publicUrl: string): AdminMemberRef | null {
    if (!user) return null;
    return {
      id: user._id,
      name: user.name,
      email: user.email,
      avatarUrl: user.avatarUrl ? toPublicFileUrl(user.avatarUrl, publicUrl) : null,
    };
  }

  function toAdminUser(user: AdminAccountFields, options: AdminOptions): AdminUser {
    return {
      id: user._id,
      name: user.name,
      email: user.email,
      avatarUrl: user.avatarUrl ? toPublicFileUrl(user.avatarUrl, options.publicUrl) : null,
      ...(user.affiliation ? { affiliation: user.affiliation } : {}),
      status: memberStatusOf(user),
      isAdmin: user._id === options.adminUserId,
      suspendedAt: user.suspendedAt?.toISOString() ?? null,
      suspensionReason: user.suspensionReason ?? null,
      createdAt: user.createdAt.toISOString(),
      lastActiveAt: user.lastActiveAt?.toISOString() ?? null,
    };
  }

  async function summary(): Promise<AdminSummary> {
    const [pendingApplications, openReports, pendingFeedback] = await Promise.all([
      applications.countApplications('pending'),
      reports.countOpenCases(),
      feedback.countFeedback('pending'),
    ]);
    return { pendingApplications, openReports, pendingFeedback };
  }

  // ------------------------------------------------------------ applications

  async function listApplications(
    query: Page & { status: ApplicationStatus },
  ): Promise<AdminPage<AdminApplication>> {
    const { items, total } = await applications.listApplications(query.status, window(query));
    return {
      items: items.map(toAdminApplication),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  /**
   * Approves a pending application: an invitation (random token, 14 days, single use) made in the
   * same transaction, then e-mailed when the contact information holds an address. The link is
   * answered either way, so the administrator can also send it another way.
   */
  async function approveApplication(
    admin: AuthUser,
    id: number,
    options: AdminOptions,
  ): Promise<ApproveApplicationResponse> {
    const { application, token, expiresAt } = await transaction(async () => {
      const decided = await applications.decideApplication(id, {
        status: 'approved',
        adminId: admin.id,
      });
      const email = emailInContactInfo(decided.contactInfo);
      const invitation = await invitations.createInvitation({
        applicationId: decided._id,
        name: decided.name,
        email,
      });
      await audit.record({
        adminId: admin.id,
        action: 'application.approve',
        target: { type: 'application', id },
        details: { name: decided.name, email },
      });
      return { application: decided, ...invitation };
    });
    const invitationUrl = `${options.webUrl}/register?invitation=${token}`;
    const email = emailInContactInfo(application.contactInfo);
    const emailed = email
      ? await send(
          options,
          invitationEmail(application.name, email, invitationUrl, INVITATION_TTL_DAYS),
        )
      : false;
    return {
      invitationUrl,
      expiresAt: expiresAt.toISOString(),
      emailed,
      application: toAdminApplication(application),
    };
  }

  async function rejectApplication(
    admin: AuthUser,
    id: number,
    reason: string | undefined,
    options: AdminOptions,
  ): Promise<RejectApplicationResponse> {
    const given = reason ? reason : null;
    const application = await transaction(async () => {
      const decided = await applications.decideApplication(id, {
        status: 'rejected',
        adminId: admin.id,
        reason: given,
      });
      await audit.record({
        adminId: admin.id,
        action: 'application.reject',
        target: { type: 'application', id },
        details: { name: decided.name, reason: given },
      });
      return decided;
    });
    const email = emailInContactInfo(application.contactInfo);
    const emailed = email
      ? await send(options, rejectionEmail(application.name, email, given))
      : false;
    return { emailed, application: toAdminApplication(application) };
  }

  /** Whether the e-mail went out; the decision stands either way (answered as `emailed`). */
  async function send(options: AdminOptions, mail: Parameters<Mailer['send']>[0]) {
    try {
      await options.mailer.send(mail);
      return true;
    } catch {
      return false;
    }
  }

  // ------------------------------------------------------------ feedback

  async function presentFeedback(
    docs: FeedbackDoc[],
    options: AdminOptions,
  ): Promise<AdminFeedback[]> {
    const authors = await accounts.accountRefs(docs.map((f) => f.userId));
    return docs.map((f) => ({
      id: f._id,
      message: f.message,
      status: f.status,
      author: memberRef(authors.get(f.userId), options.publicUrl),
      reply: f.reply ?? null,
      repliedAt: f.repliedAt?.toISOString() ?? null,
      createdAt: f.createdAt.toISOString(),
      updatedAt: f.updatedAt.toISOString(),
    }));
  }

  async function listFeedback(
    query: Page & { status: FeedbackStatus },
    options: AdminOptions,
  ): Promise<AdminPage<AdminFeedback>> {
    const { items, total } = await feedback.listFeedback(query.status, window(query));
    return {
      items: await presentFeedback(items, options),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  async function updateFeedback(
    admin: AuthUser,
    id: number,
    update: AdminFeedbackUpdate,
    options: AdminOptions,
  ): Promise<AdminFeedback> {
    const updated = await transaction(async () => {
      const { before, after } = await feedback.updateFeedback(id, update, admin.id);
      await audit.record({
        adminId: admin.id,
        action: 'feedback.update',
        target: { type: 'feedback', id },
        details: {
          from: before.status,
          status: after.status,
          reply: update.reply ?? null,
        },
      });
      return after;
    });
    const [view] = await presentFeedback([updated], options);
    return view!;
  }

  // ------------------------------------------------------------ members

  async function listMembers(
    query: Page & Pick<AdminUsersQuery, 'q' | 'status'>,
    options: AdminOptions,
  ): Promise<AdminPage<AdminUser>> {
    const { items, total } = await accounts.listAccounts(
      { q: query.q || undefined, status: query.status },
      window(query),
    );
    return {
      items: items.map((u) => toAdminUser(u, options)),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  /**
   * Suspends a member: sign-in refused, tokens refused at once, posts and comments hidden from
   * everyone (`account.suspended`: the caches forget what they showed). Inside the caller's
   * transaction when there is one (resolving a report).
   */
  async function suspend(admin: AuthUser, id: number, reason: string, options: AdminOptions) {
    if (id === admin.id || id === options.adminUserId) throw badRequest(CANNOT_SUSPEND_YOURSELF);
    return transaction(async () => {
      const user = await accounts.suspendAccount(id, reason, new Date());
      await posts.setAuthorHidden(id, true);
      await comments.setAuthorHidden(id, true);
      await audit.record({
        adminId: admin.id,
        action: 'user.suspend',
        target: { type: 'user', id },
        details: { name: user.name, email: user.email, reason },
      });
      return user;
    });
  }

  async function suspendMember(
    admin: AuthUser,
    id: number,
    reason: string,
    options: AdminOptions,
  ): Promise<AdminUser> {
    return toAdminUser(await suspend(admin, id, reason, options), options);
  }

  async function reactivateMember(
    admin: AuthUser,
    id: number,
    options: AdminOptions,
  ): Promise<AdminUser> {
    const user = await transaction(async () => {
      const reactivated = await accounts.reactivateAccount(id);
      await posts.setAuthorHidden(id, false);
      await comments.setAuthorHidden(id, false);
      await audit.record({
        adminId: admin.id,
        action: 'user.reactivate',
        target: { type: 'user', id },
        details: { name: reactivated.name, email: reactivated.email },
      });
      return reactivated;
    });
    return toAdminUser(user, options);
  }

  // ------------------------------------------------------------ reports

  async function presentReports(
    cases: ReportCaseDoc[],
    options: AdminOptions,
  ): Promise<AdminReport[]> {
    const ids = (type: ReportCaseDoc['targetType']) =>
      cases.filter((c) => c.targetType === type).map((c) => c.targetId);
    const [postsById, commentsById, reasons] = await Promise.all([
      posts.postsForModeration(ids('post')),
      comments.commentsForModeration(ids('comment')),
      reports.reportsOfCases(cases.map((c) => c._id)),
    ]);
    const people = await accounts.accountRefs([
      ...ids('user'),
      ...[...postsById.values()].map((p) => p.authorId),
      ...[...commentsById.values()].map((c) => c.authorId),
    ]);
    const target = (c: ReportCaseDoc): AdminReport['target'] => {
      if (c.targetType === 'post') {
        const post = postsById.get(c.targetId);
        return {
          content: post?.content ?? null,
          postId: post ? c.targetId : null,
          author: post ? memberRef(people.get(post.authorId), options.publicUrl) : null,
          removed: !post || post.deleted,
        };
      }
      if (c.targetType === 'comment') {
        const comment = commentsById.get(c.targetId);
        return {
          content: comment?.content ?? null,
          postId: comment?.postId ?? null,
          author: comment ? memberRef(people.get(comment.authorId), options.publicUrl) : null,
          removed: !comment || comment.deleted,
        };
      }
      const user = people.get(c.targetId);
      return {
        content: null,
        postId: null,
        author: memberRef(user, options.publicUrl),
        removed: !user || !!user.suspendedAt,
      };
    };
    return cases.map((c) => {
      const list = reasons.get(c._id) ?? [];
      return {
        id: c._id,
        targetType: c.targetType,
        targetId: c.targetId,
        status: c.status,
        target: target(c),
        reasons: list.map((r) => ({ reason: r.reason, createdAt: r.createdAt.toISOString() })),
        reportCount: Math.max(1, c.reportCount),
        createdAt: c.createdAt.toISOString(),
        lastReportedAt: c.lastReportedAt.toISOString(),
        resolution: c.resolution
          ? { action: c.resolution.action, resolvedAt: c.resolution.resolvedAt.toISOString() }
          : null,
      };
    });
  }

  async function listReports(
    query: Page & { status: ReportStatus },
    options: AdminOptions,
  ): Promise<AdminPage<AdminReport>> {
    const { items, total } = await reports.listCases(query.status, window(query));
    return {
      items: await presentReports(items, options),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  /**
   * Resolves a case, once. `remove`: a post is soft-deleted through its author's delete path, a
   * comment (and its replies) soft-deleted with its post's count recounted and its timeline
   * copies deleted, a member suspended; the author of removed content is notified
   * (`content_removed`) without naming who reported. `dismiss` keeps the target. All of it, the
   * case and the audit entry in one transaction.
   */
  async function resolveReport(
    admin: AuthUser,
    id: number,
    action: ReportAction,
    options: AdminOptions,
  ): Promise<AdminReport> {
    const closed = await transaction(async () => {
      const now = new Date();
      const resolved = await reports.closeCase(id, { action, adminId: admin.id, now });
      const details: Record<string, string | number | boolean | null> = {
        targetType: resolved.targetType,
        targetId: resolved.targetId,
        reports: resolved.reportCount,
      };
      if (action === 'remove') {
        if (resolved.targetType === 'post') {
          const post = (await posts.postsForModeration([resolved.targetId])).get(resolved.targetId);
          if (post && (await posts.removePostByModeration(resolved.targetId))) {
            details.content = excerpt(post.content);
            await deps.notify.contentRemoved(post.authorId, {
              targetType: 'post',
              content: excerpt(post.content),
            });
          }
        } else if (resolved.targetType === 'comment') {
          const comment = (await comments.commentsForModeration([resolved.targetId])).get(
            resolved.targetId,
          );
          const removed = comment
            ? await comments.removeCommentByModeration(resolved.targetId, now)
            : null;
          if (comment && removed) {
            // Copies of the removed comments shared to timelines go too; the counts are recounted.
            for (const postId of await posts.postIdsSharingComments(removed.commentIds)) {
              await posts.removePostByModeration(postId);
            }
            await posts.recountPosts([removed.postId]);
            details.content = excerpt(comment.content);
            await deps.notify.contentRemoved(comment.authorId, {
              targetType: 'comment',
              content: excerpt(comment.content),
            });
          }
        } else {
          const reason = 'Suspended after reports';
          const target = await accounts.findAccount(resolved.targetId);
          if (!target.suspendedAt) await suspend(admin, resolved.targetId, reason, options);
        }
      }
      await audit.record({
        adminId: admin.id,
        action: action === 'remove' ? 'report.remove' : 'report.dismiss',
        target: { type: 'report', id },
        details,
      });
      return resolved;
    });
    const [view] = await presentReports([closed], options);
    return view!;
  }

  // ------------------------------------------------------------ audit

  async function listAudit(query: Page, options: AdminOptions): Promise<AdminPage<AuditEntry>> {
    const { items, total } = await audit.listEntries(window(query));
    const admins = await accounts.accountRefs(items.map((e) => e.adminId));
    return {
      items: items.map((e) => ({
        id: e._id,
        createdAt: e.createdAt.toISOString(),
        admin: memberRef(admins.get(e.adminId), options.publicUrl),
        action: e.action,
        target: { type: e.targetType, id: e.targetId },
        details: e.details,
      })),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  return {
    summary,
    listApplications,
    approveApplication,
    rejectApplication,
    listFeedback,
    updateFeedback,
    listMembers,
    suspendMember,
    reactivateMember,
    listReports,
    resolveReport,
    listAudit,
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
