/**
 * The administrator's removals and suspensions as decisions with a reason (issue 38): recorded
 * in the transaction that carries them out, read by the member's notices and the appeals queue.
 */
import { createHash, randomBytes } from 'node:crypto';
import { trusted } from 'mongoose';
import type { DecisionKind, ReportCategory } from '@campus/contracts';
import type { AppContext } from '../../context';
import { appealsOf, decisionsOf, type AppealDoc, type DecisionDoc } from './model';

/** How long the appeal ticket a suspended member's sign-in gets stays valid. */
export const APPEAL_TICKET_TTL_MS = 60 * 60 * 1000;

export function hashTicket(ticket: string): string {
  return createHash('sha256').update(ticket).digest('hex');
}

export interface DecisionInput {
  kind: DecisionKind;
  memberId: number;
  reason: { category: ReportCategory; text: string | null };
  targetId: number;
  postId?: number | null;
  content?: string | null;
  alsoRemoved?: { commentIds: number[]; postIds: number[] };
  decidedAt: Date;
  decidedBy: number;
}

/** Records a decision in the caller's transaction (`decision.recorded`); answers its id. */
export async function recordDecision(ctx: AppContext, input: DecisionInput): Promise<number> {
  const id = await ctx.ids.nextId('moderation_decisions');
  await ctx.transaction(async () => {
    await decisionsOf(ctx).create({
      _id: id,
      kind: input.kind,
      memberId: input.memberId,
      category: input.reason.category,
      text: input.reason.text,
      targetId: input.targetId,
      postId: input.postId ?? null,
      content: input.content ?? null,
      alsoRemoved: input.alsoRemoved ?? { commentIds: [], postIds: [] },
      decidedAt: input.decidedAt,
      decidedBy: input.decidedBy,
    });
    ctx.publish({ type: 'decision.recorded', decisionId: id, memberId: input.memberId });
  });
  return id;
}

/** The member's suspension in force, if any. */
export function suspensionInForce(ctx: AppContext, memberId: number) {
  return decisionsOf(ctx)
    .findOne({ memberId, kind: 'suspension', status: 'in_force' })
    .sort({ _id: -1 })
    .lean<DecisionDoc>();
}

/**
 * Marks decisions lifted, in the caller's transaction: this one (`id`), or every suspension in
 * force of `memberId` (the administrator reactivated the member from the members page).
 */
export async function markLifted(
  ctx: AppContext,
  which: { id: number } | { suspensionsOf: number },
): Promise<void> {
  const filter: Record<string, unknown> =
    'id' in which
      ? { _id: which.id, status: 'in_force' }
      : { memberId: which.suspensionsOf, kind: 'suspension', status: 'in_force' };
  const lifted = await decisionsOf(ctx).updateMany(filter, {
    $set: { status: 'lifted', ticketHash: null, ticketExpiresAt: null },
  });
  if (lifted.modifiedCount > 0) {
    const memberId =
      'id' in which
        ? ((await decisionsOf(ctx).findById(which.id, { memberId: 1 }).lean())?.memberId ?? 0)
        : which.suspensionsOf;
    ctx.publish({ type: 'decision.lifted', memberId });
  }
}

/** Decisions by id (missing ids left out). */
export async function decisionsByIds(
  ctx: AppContext,
  ids: number[],
): Promise<Map<number, DecisionDoc>> {
  if (ids.length === 0) return new Map();
  const docs = await decisionsOf(ctx)
    .find({ _id: trusted({ $in: [...new Set(ids)] }) })
    .lean<DecisionDoc[]>();
  return new Map(docs.map((d) => [d._id, d]));
}

/** The appeal of a decision, if one was made. */
export function appealOfDecision(ctx: AppContext, decisionId: number) {
  return appealsOf(ctx).findOne({ decisionId }).lean<AppealDoc>();
}

/**
 * A new appeal ticket for a suspension not yet appealed (the old one stops working): answers
 * the ticket, which is stored only as its hash.
 */
export async function issueTicket(ctx: AppContext, decisionId: number): Promise<string> {
  const ticket = randomBytes(32).toString('base64url');
  await decisionsOf(ctx).updateOne(
    { _id: decisionId },
    {
      $set: {
        ticketHash: hashTicket(ticket),
        ticketExpiresAt: new Date(ctx.clock.now().getTime() + APPEAL_TICKET_TTL_MS),
      },
    },
  );
  return ticket;
}
