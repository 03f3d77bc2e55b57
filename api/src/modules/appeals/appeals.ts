/** Members' appeals of decisions (issue 38): once per decision, and their outcome. */
import {
  ALREADY_APPEALED_MESSAGE,
  APPEAL_ALREADY_DECIDED,
  APPEAL_NOT_FOUND,
  APPEAL_TICKET_INVALID,
  DECISION_NOT_FOUND,
  DECISION_NOT_IN_FORCE,
  type AppealStatus,
  type MemberAppeal,
  type ReportCategory,
  type SuspensionNotice,
} from '@campus/contracts';
import type { AppContext } from '../../context';
import { badRequest, conflict, notFound } from '../../platform/errors';
import { isDuplicateKey } from '../../platform/mongo-errors';
import { markDecisionAppealed } from '../notifications/mark-read';
import { userPolicy } from '../users/policy';
import {
  appealOfDecision,
  hashTicket,
  issueTicket,
  recordDecision,
  suspensionInForce,
} from './decisions';
import { appealsOf, decisionsOf, type AppealDoc, type DecisionDoc } from './model';

export function toMemberAppeal(appeal: AppealDoc): MemberAppeal {
  return {
    id: appeal._id,
    decisionId: appeal.decisionId,
    status: appeal.status,
    createdAt: appeal.createdAt.toISOString(),
    decidedAt: appeal.decidedAt?.toISOString() ?? null,
  };
}

/** Stores the appeal of a decision in force, once (409 after that): `appeal.filed`. */
async function appealDecision(
  ctx: AppContext,
  decision: DecisionDoc,
  text: string,
): Promise<MemberAppeal> {
  if (decision.status !== 'in_force') throw conflict(DECISION_NOT_IN_FORCE);
  const id = await ctx.ids.nextId('appeals');
  try {
    const appeal = await ctx.transaction(async () => {
      const created = await appealsOf(ctx).create({
        _id: id,
        decisionId: decision._id,
        memberId: decision.memberId,
        text,
        status: 'pending',
        createdAt: ctx.clock.now(),
      });
      // A ticket is spent once appealed.
      await decisionsOf(ctx).updateOne(
        { _id: decision._id },
        { $set: { ticketHash: null, ticketExpiresAt: null } },
      );
      await markDecisionAppealed(ctx, decision.memberId, decision._id);
      ctx.publish({ type: 'appeal.filed', appealId: id, memberId: decision.memberId });
      return created.toObject<AppealDoc>();
    });
    return toMemberAppeal(appeal);
  } catch (err) {
    if (isDuplicateKey(err)) throw conflict(ALREADY_APPEALED_MESSAGE);
    throw err;
  }
}

/** `POST /api/appeals`: a signed-in member appeals a decision about them (404 anyone else's). */
export async function fileAppeal(
  ctx: AppContext,
  memberId: number,
  input: { decisionId: number; text: string },
): Promise<MemberAppeal> {
  const decision = await decisionsOf(ctx).findById(input.decisionId).lean<DecisionDoc>();
  if (!decision || decision.memberId !== memberId) throw notFound(DECISION_NOT_FOUND);
  return appealDecision(ctx, decision, input.text);
}

/**
 * `POST /api/appeals/suspension`: a suspended member (signed out) appeals with the ticket their
 * sign-in's 403 carried. 400 for a ticket unknown or expired.
 */
export async function fileSuspensionAppeal(
  ctx: AppContext,
  input: { ticket: string; text: string },
): Promise<MemberAppeal> {
  const decision = await decisionsOf(ctx)
    .findOne({ ticketHash: hashTicket(input.ticket), kind: 'suspension' })
    .lean<DecisionDoc>();
  if (!decision || !decision.ticketExpiresAt || decision.ticketExpiresAt <= ctx.clock.now()) {
    throw badRequest(APPEAL_TICKET_INVALID);
  }
  return appealDecision(ctx, decision, input.text);
}

/**
 * What a suspended member's sign-in (right password) is told besides the message: the reason,
 * their appeal, or a fresh ticket to appeal with. A suspension from before reasons were recorded
 * gets its decision now, from the reason the account holds.
 */
export async function suspensionNotice(
  ctx: AppContext,
  account: {
    id: number;
    suspendedAt: Date;
    reason: string | null;
    category: ReportCategory | null;
  },
): Promise<SuspensionNotice> {
  const decision =
    (await suspensionInForce(ctx, account.id)) ??
    (await decisionsOf(ctx)
      .findById(
        await recordDecision(ctx, {
          kind: 'suspension',
          memberId: account.id,
          reason: { category: account.category ?? 'other', text: account.reason },
          targetId: account.id,
          decidedAt: account.suspendedAt,
          decidedBy: userPolicy.administratorId(ctx),
        }),
      )
      .lean<DecisionDoc>());
  if (!decision) throw notFound(DECISION_NOT_FOUND);
  const appeal = await appealOfDecision(ctx, decision._id);
  return {
    decisionId: decision._id,
    suspendedAt: decision.decidedAt.toISOString(),
    reason: { category: decision.category, text: decision.text },
    appeal: appeal ? toMemberAppeal(appeal) : null,
    ticket: appeal ? null : await issueTicket(ctx, decision._id),
  };
}

/** The administrator's queue: one status; pending oldest first (first come), decided newest first. */
export async function listAppeals(
  ctx: AppContext,
  status: AppealStatus,
  page: { skip: number; limit: number },
): Promise<{ items: AppealDoc[]; total: number }> {
  const order = status === 'pending' ? 1 : -1;
  const [items, total] = await Promise.all([
    appealsOf(ctx)
      .find({ status })
      .sort({ createdAt: order, _id: order })
      .skip(page.skip)
      .limit(page.limit)
      .lean<AppealDoc[]>(),
    appealsOf(ctx).countDocuments({ status }),
  ]);
  return { items, total };
}

export function countPendingAppeals(ctx: AppContext): Promise<number> {
  return appealsOf(ctx).countDocuments({ status: 'pending' });
}

/**
 * Decides a pending appeal, once (one conditional update), in the caller's transaction with what
 * the outcome does: `appeal.decided`. 404 unknown, 409 decided.
 */
export async function closeAppeal(
  ctx: AppContext,
  id: number,
  outcome: { status: 'lifted' | 'upheld'; adminId: number; response: string | null; now: Date },
): Promise<{ appeal: AppealDoc; decision: DecisionDoc }> {
  const closed = await appealsOf(ctx)
    .findOneAndUpdate(
      { _id: id, status: 'pending' },
      {
        $set: {
          status: outcome.status,
          decidedAt: outcome.now,
          decidedBy: outcome.adminId,
          response: outcome.response,
        },
      },
      { returnDocument: 'after' },
    )
    .lean<AppealDoc>();
  if (!closed) {
    if (await appealsOf(ctx).exists({ _id: id })) throw conflict(APPEAL_ALREADY_DECIDED);
    throw notFound(APPEAL_NOT_FOUND);
  }
  const decision = await decisionsOf(ctx).findById(closed.decisionId).lean<DecisionDoc>();
  if (!decision) throw notFound(DECISION_NOT_FOUND);
  ctx.publish({
    type: 'appeal.decided',
    appealId: id,
    memberId: closed.memberId,
    outcome: outcome.status,
  });
  return { appeal: closed, decision };
}
