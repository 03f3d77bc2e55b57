/**
 * Reports of what is gone close themselves (issue 41): a post deleted by its author or removed,
 * a comment deleted or removed (or its post gone), an account deleted. Nothing is left for the
 * administrator to act on, so the case is resolved as `gone` rather than wait in the queue
 * offering to remove what is no longer there.
 *
 * Driven by the domain events of the deletions, handled by the process whose commit published
 * them (the others would only race it to the same conditional update). An event a process did
 * not get to handle (it stopped right after the commit) is caught when the administrator lists
 * the open cases (`closeGoneCases` on the listed page: modules/admin/reports.ts).
 */
import { trusted } from 'mongoose';
import type { AppContext } from '../../context';
import type { DomainEvent } from '../../domain-events';
import type { EventBus } from '../../platform/event-bus';
import { outsideRequest } from '../../platform/logger';
import { commentsForModeration } from '../comments/queries';
import { postsForModeration } from '../posts/queries';
import { existingUserIds } from '../users/queries';
import { reportCasesOf, type ReportCaseDoc } from './model';

/** Cases looked at per round: an open queue is short, and a round stays bounded however long. */
const BATCH = 200;

type OpenCase = Pick<ReportCaseDoc, '_id' | 'targetType' | 'targetId'>;

/** The ids among `cases` whose target is gone: deleted, removed, or the post it was on. */
async function goneTargets(ctx: AppContext, cases: OpenCase[]): Promise<number[]> {
  const ids = (type: OpenCase['targetType']) =>
    cases.filter((c) => c.targetType === type).map((c) => c.targetId);
  const comments = await commentsForModeration(ctx, ids('comment'));
  const [posts, users] = await Promise.all([
    postsForModeration(ctx, [...ids('post'), ...[...comments.values()].map((c) => c.postId)]),
    existingUserIds(ctx, ids('user')),
  ]);
  const postGone = (id: number) => {
    const post = posts.get(id);
    return !post || post.deleted;
  };
  const gone: number[] = [];
  for (const c of cases) {
    if (c.targetType === 'post' && postGone(c.targetId)) gone.push(c._id);
    if (c.targetType === 'comment') {
      const comment = comments.get(c.targetId);
      if (!comment || comment.deleted || postGone(comment.postId)) gone.push(c._id);
    }
    // A suspended member is still there (a reactivation brings them back): only a deleted one.
    if (c.targetType === 'user' && !users.has(c.targetId)) gone.push(c._id);
  }
  return gone;
}

/**
 * Closes the open cases among `cases` whose target is gone, each once (a conditional update: an
 * administrator's resolution or another closing wins over it); answers how many it closed.
 */
export async function closeGoneCases(ctx: AppContext, cases: OpenCase[]): Promise<number> {
  const gone = await goneTargets(ctx, cases);
  if (gone.length === 0) return 0;
  return ctx.transaction(async () => {
    const resolvedAt = ctx.clock.now();
    let closed = 0;
    for (const id of gone) {
      const done = await reportCasesOf(ctx).updateOne(
        { _id: id, status: 'open' },
        {
          $set: {
            status: 'resolved',
            resolution: {
              action: 'gone',
              resolvedAt,
              resolvedBy: null,
              category: null,
              reasonText: null,
            },
          },
        },
      );
      if (done.modifiedCount === 1) {
        closed += 1;
        ctx.publish({ type: 'report.resolved', caseId: id, action: 'gone' });
      }
    }
    return closed;
  });
}

/** Closes the open cases matching `filter` whose target is gone, a batch at a time. */
async function closeGoneCasesWhere(ctx: AppContext, filter: Record<string, unknown>) {
  let after = 0;
  for (;;) {
    const batch = await reportCasesOf(ctx)
      .find(
        { ...filter, status: 'open', _id: trusted({ $gt: after }) },
        { targetType: 1, targetId: 1 },
      )
      .sort({ _id: 1 })
      .limit(BATCH)
      .lean<OpenCase[]>();
    if (batch.length === 0) return;
    await closeGoneCases(ctx, batch);
    after = batch[batch.length - 1]!._id;
  }
}

/** The open cases a deletion may have left without a target. */
function casesAffectedBy(event: DomainEvent): Record<string, unknown> | null {
  switch (event.type) {
    case 'post.deleted':
      // The post, and the comments on it (gone with it for anyone who would look).
      return {
        $or: [{ targetType: 'post', targetId: event.postId }, { targetType: 'comment' }],
      };
    case 'comment.deleted':
      return {
        targetType: 'comment',
        targetId: trusted({ $in: [event.commentId, ...event.alsoGone] }),
      };
    case 'comment.removed':
      return { targetType: 'comment', targetId: trusted({ $in: event.commentIds }) };
    case 'account.deleted':
      // The member, and every post and comment of theirs that went with the account.
      return {};
    default:
      return null;
  }
}

/**
 * Follows the deletions of this app's own commits and closes the cases they leave without a
 * target; answers the unsubscribe function and a way to wait for the rounds under way.
 */
export function closeReportsOfGoneContent(ctx: AppContext, events: EventBus<DomainEvent>) {
  const rounds = new Set<Promise<void>>();
  const handle = (event: DomainEvent, { local }: { local: boolean }) => {
    const filter = casesAffectedBy(event);
    if (!local || !filter) return;
    const round = outsideRequest(async () => {
      try {
        await closeGoneCasesWhere(ctx, filter);
      } catch (err) {
        // The administrator's next look at the open cases closes them (modules/admin/reports.ts).
        ctx.logger.warn({ err, event: event.type }, 'reports of deleted content stay open for now');
      }
    }).finally(() => rounds.delete(round));
    rounds.add(round);
  };
  const stop = events.on(
    ['post.deleted', 'comment.deleted', 'comment.removed', 'account.deleted'],
    handle,
  );
  return {
    stop,
    /** Resolves once every round started so far is done. */
    async settled(): Promise<void> {
      while (rounds.size > 0) await Promise.all([...rounds]);
    },
  };
}
