/**
 * The administrator's appeals queue (issue 38): every appeal with the decision it appeals, and
 * its outcome. Lifting undoes the decision (the member reactivated, the post or comment and
 * what was removed with it restored); upholding keeps it. Either way the member is told (a
 * notification, and an e-mail for a suspension, which keeps them from reading notifications)
 * and the audit log records it, in the transaction of the outcome.
 */
import type {
  AdminAppeal,
  AdminPage,
  AppealOutcome,
  AppealStatus,
  DecisionKind,
} from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { closeAppeal, listAppeals as appealsOfStatus } from '../appeals/appeals';
import { decisionsByIds, markLifted } from '../appeals/decisions';
import { recordAudit } from '../audit/audit-log';
import { restoreCommentsByModeration } from '../comments/moderation';
import { notify } from '../notifications/notify';
import { recountPosts } from '../posts/moderation';
import { restorePostByModeration } from '../posts/restore-post';
import { accountRefs } from '../users/admin-accounts';
import { appealDecidedEmail } from './appeal-emails';
import { reactivate } from './members';
import { memberRef, window, type Page } from './present';

// What the appeals module answers (this module never imports another module's model).
type Closed = Awaited<ReturnType<typeof closeAppeal>>;
type AppealDoc = Closed['appeal'];
type DecisionDoc = Closed['decision'];

async function presentAppeals(
  ctx: AppContext,
  appeals: AppealDoc[],
  known: DecisionDoc[] = [],
): Promise<AdminAppeal[]> {
  const decisions = await decisionsByIds(
    ctx,
    appeals.map((a) => a.decisionId).filter((id) => !known.some((d) => d._id === id)),
  );
  for (const d of known) decisions.set(d._id, d);
  const people = await accountRefs(
    ctx,
    appeals.map((a) => a.memberId),
  );
  return appeals.flatMap((a) => {
    const d = decisions.get(a.decisionId);
    if (!d) return [];
    return [
      {
        id: a._id,
        status: a.status,
        text: a.text,
        createdAt: a.createdAt.toISOString(),
        decidedAt: a.decidedAt?.toISOString() ?? null,
        response: a.response,
        member: memberRef(ctx, people.get(a.memberId), ctx.config.publicUrl),
        decision: {
          id: d._id,
          kind: d.kind,
          reason: { category: d.category, text: d.text },
          content: d.content,
          postId: d.postId,
          decidedAt: d.decidedAt.toISOString(),
        },
      },
    ];
  });
}

export async function listAppeals(
  ctx: AppContext,
  query: Page & { status: AppealStatus },
): Promise<AdminPage<AdminAppeal>> {
  const { items, total } = await appealsOfStatus(ctx, query.status, window(query));
  return {
    items: await presentAppeals(ctx, items),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** Undoes a decision still in force; whether anything came back. */
async function undo(ctx: AppContext, decision: DecisionDoc): Promise<boolean> {
  if (decision.status !== 'in_force') return false;
  let undone = false;
  const kind: DecisionKind = decision.kind;
  switch (kind) {
    case 'suspension': {
      const account = (await accountRefs(ctx, [decision.memberId])).get(decision.memberId);
      if (account?.suspendedAt) {
        await reactivate(ctx, decision.memberId);
        undone = true;
      }
      break;
    }
    case 'post_removal':
      undone = await restorePostByModeration(ctx, decision.targetId);
      break;
    case 'comment_removal': {
      const restored = await restoreCommentsByModeration(ctx, [
        decision.targetId,
        ...decision.alsoRemoved.commentIds,
      ]);
      for (const postId of decision.alsoRemoved.postIds) {
        await restorePostByModeration(ctx, postId);
      }
      if (restored) {
        await recountPosts(ctx, [restored.postId]);
        undone = true;
      }
      break;
    }
  }
  await markLifted(ctx, { id: decision._id });
  return undone;
}

/** Lifts or upholds a pending appeal, once: 404 unknown, 409 decided. */
export async function decideAppeal(
  ctx: AppContext,
  admin: AuthUser,
  id: number,
  input: { outcome: AppealOutcome; response?: string },
): Promise<AdminAppeal> {
  const status = input.outcome === 'lift' ? 'lifted' : 'upheld';
  const response = input.response ?? null;
  const { appeal, decision } = await ctx.transaction(async () => {
    const closed = await closeAppeal(ctx, id, {
      status,
      adminId: admin.id,
      response,
      now: ctx.clock.now(),
    });
    const { decision } = closed;
    const restored = status === 'lifted' ? await undo(ctx, decision) : false;
    await notify(ctx, 'appeal_decided', decision.memberId, {
      decisionId: decision._id,
      decisionKind: decision.kind,
      outcome: status,
      content: decision.content,
      response,
    });
    await recordAudit(ctx, {
      adminId: admin.id,
      action: status === 'lifted' ? 'appeal.lift' : 'appeal.uphold',
      target: { type: 'appeal', id },
      details: {
        decision: decision._id,
        kind: decision.kind,
        member: decision.memberId,
        category: decision.category,
        response,
        restored,
      },
    });
    return closed;
  });
  if (decision.kind === 'suspension') {
    const account = (await accountRefs(ctx, [decision.memberId])).get(decision.memberId);
    if (account) {
      await ctx.mailer
        .send(appealDecidedEmail(account.name, account.email, status, response, ctx.config.webUrl))
        // The outcome stands either way; the mail queue shows the admin a mail that keeps failing.
        .catch(() => undefined);
    }
  }
  const [view] = await presentAppeals(ctx, [appeal], [decision]);
  return view!;
}
