import type { AdminPage, AdminUser, AdminUsersQuery, ReportCategory } from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { badRequest } from '../../platform/errors';
import { markLifted, recordDecision } from '../appeals/decisions';
import { recordAudit } from '../audit/audit-log';
import { setAuthorHidden as setCommentsHidden } from '../comments/moderation';
import { setAuthorHidden as setPostsHidden } from '../posts/moderation';
import { listAccounts, reactivateAccount, suspendAccount } from '../users/admin-accounts';
import { userPolicy } from '../users/policy';
import { toAdminUser, window, type Page } from './present';

export const CANNOT_SUSPEND_YOURSELF = 'You cannot suspend your own account';

export async function listMembers(
  ctx: AppContext,
  query: Page & Pick<AdminUsersQuery, 'q' | 'status'>,
): Promise<AdminPage<AdminUser>> {
  const { items, total } = await listAccounts(
    ctx,
    { q: query.q || undefined, status: query.status },
    window(query),
  );
  return {
    items: items.map((u) => toAdminUser(ctx, u)),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

export type SuspensionReason = { category: ReportCategory; text: string };

/**
 * Suspends a member: sign-in refused, tokens refused at once, posts and comments hidden from
 * everyone (`account.suspended`: the caches forget what they showed), and the decision recorded
 * with the reason the member is shown at sign-in and may appeal (issue 38). Inside the caller's
 * transaction when there is one (resolving a report).
 */
export async function suspend(
  ctx: AppContext,
  admin: AuthUser,
  id: number,
  reason: SuspensionReason,
) {
  if (id === admin.id || userPolicy.isAdministrator(ctx, id))
    throw badRequest(CANNOT_SUSPEND_YOURSELF);
  return ctx.transaction(async () => {
    const now = ctx.clock.now();
    const user = await suspendAccount(ctx, id, reason, now);
    await setPostsHidden(ctx, id, true);
    await setCommentsHidden(ctx, id, true);
    const decisionId = await recordDecision(ctx, {
      kind: 'suspension',
      memberId: id,
      reason,
      targetId: id,
      decidedAt: now,
      decidedBy: admin.id,
    });
    await recordAudit(ctx, {
      adminId: admin.id,
      action: 'user.suspend',
      target: { type: 'user', id },
      details: {
        name: user.name,
        email: user.email,
        category: reason.category,
        reason: reason.text,
        decision: decisionId,
      },
    });
    return user;
  });
}

export async function suspendMember(
  ctx: AppContext,
  admin: AuthUser,
  id: number,
  reason: { category?: ReportCategory; reason: string },
): Promise<AdminUser> {
  const given = { category: reason.category ?? 'other', text: reason.reason };
  return toAdminUser(ctx, await suspend(ctx, admin, id, given));
}

/**
 * Lifts a suspension, in the caller's transaction when there is one: sign-in allowed again,
 * posts and comments shown, the suspension decision no longer in force.
 */
export async function reactivate(ctx: AppContext, id: number) {
  return ctx.transaction(async () => {
    const reactivated = await reactivateAccount(ctx, id);
    await setPostsHidden(ctx, id, false);
    await setCommentsHidden(ctx, id, false);
    await markLifted(ctx, { suspensionsOf: id });
    return reactivated;
  });
}

export async function reactivateMember(
  ctx: AppContext,
  admin: AuthUser,
  id: number,
): Promise<AdminUser> {
  const user = await ctx.transaction(async () => {
    const reactivated = await reactivate(ctx, id);
    await recordAudit(ctx, {
      adminId: admin.id,
      action: 'user.reactivate',
      target: { type: 'user', id },
      details: { name: reactivated.name, email: reactivated.email },
    });
    return reactivated;
  });
  return toAdminUser(ctx, user);
}
