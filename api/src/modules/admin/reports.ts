import type {
  AdminPage,
  AdminReport,
  ReportAction,
  ReportCategory,
  ReportStatus,
} from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { recordDecision } from '../appeals/decisions';
import { recordAudit } from '../audit/audit-log';
import { removeCommentByModeration } from '../comments/moderation';
import { commentsForModeration } from '../comments/queries';
import { notify } from '../notifications/notify';
import { removePostByModeration } from '../posts/delete-post';
import { recountPosts } from '../posts/moderation';
import { toPostImages } from '../media/present';
import { postIdsSharingComments, postsForModeration } from '../posts/queries';
import { closeGoneCases } from '../reports/gone-targets';
import { closeCase, listCases, reportsOfCases } from '../reports/reports';
import { accountRefs, findAccount } from '../users/admin-accounts';
import { suspend } from './members';
import { excerpt, memberRef, window, type Page } from './present';

// What the reports module answers (this module never imports another module's model).
type ReportCaseDoc = Awaited<ReturnType<typeof closeCase>>;

async function presentReports(ctx: AppContext, cases: ReportCaseDoc[]): Promise<AdminReport[]> {
  const ids = (type: ReportCaseDoc['targetType']) =>
    cases.filter((c) => c.targetType === type).map((c) => c.targetId);
  const [postsById, commentsById, reasons] = await Promise.all([
    postsForModeration(ctx, ids('post')),
    commentsForModeration(ctx, ids('comment')),
    reportsOfCases(
      ctx,
      cases.map((c) => c._id),
    ),
  ]);
  const people = await accountRefs(ctx, [
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
        author: post ? memberRef(ctx, people.get(post.authorId), ctx.config.publicUrl) : null,
        removed: !post || post.deleted,
        // Shown to the administrator blurred until clicked; a removed post has none left.
        ...(post && !post.deleted && post.images.length > 0
          ? { images: toPostImages(post.images, ctx.config.publicUrl) }
          : {}),
      };
    }
    if (c.targetType === 'comment') {
      const comment = commentsById.get(c.targetId);
      return {
        content: comment?.content ?? null,
        postId: comment?.postId ?? null,
        author: comment ? memberRef(ctx, people.get(comment.authorId), ctx.config.publicUrl) : null,
        removed: !comment || comment.deleted,
      };
    }
    const user = people.get(c.targetId);
    return {
      content: null,
      postId: null,
      author: memberRef(ctx, user, ctx.config.publicUrl),
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
      reasons: list.map((r) => ({
        category: r.category ?? 'other',
        reason: r.reason ? r.reason : null,
        createdAt: r.createdAt.toISOString(),
      })),
      categories: c.categories?.length ? c.categories : ['other'],
      reportCount: Math.max(1, c.reportCount),
      createdAt: c.createdAt.toISOString(),
      lastReportedAt: c.lastReportedAt.toISOString(),
      resolution: c.resolution
        ? {
            action: c.resolution.action,
            resolvedAt: c.resolution.resolvedAt.toISOString(),
            reason: c.resolution.category
              ? { category: c.resolution.category, text: c.resolution.reasonText ?? null }
              : null,
          }
        : null,
    };
  });
}

/** Rounds of closing a page's cases of gone content before it is shown as it is. */
const GONE_ROUNDS = 3;

/**
 * A page of cases. Open cases whose target went without its event being handled (the process
 * stopped right after the commit: modules/reports/gone-targets.ts) are closed first, and the page
 * read again, so the queue never offers to remove what is no longer there.
 */
export async function listReports(
  ctx: AppContext,
  query: Page & { status: ReportStatus; category?: ReportCategory },
): Promise<AdminPage<AdminReport>> {
  const read = () =>
    listCases(ctx, { status: query.status, category: query.category }, window(query));
  let { items, total } = await read();
  for (let round = 0; query.status === 'open' && round < GONE_ROUNDS; round++) {
    if ((await closeGoneCases(ctx, items)) === 0) break;
    ({ items, total } = await read());
  }
  return {
    items: await presentReports(ctx, items),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * Resolves a case, once. `remove`: a post is soft-deleted through its author's delete path, a
 * comment (and its replies) soft-deleted with its post's count recounted and its timeline
 * copies deleted, a member suspended; each is a decision with the administrator's reason
 * (issue 38: a category, default `other`, and words), which the author of removed content is
 * told (`content_removed`, never naming who reported) and may appeal. `dismiss` keeps the
 * target. All of it, the case and the audit entry in one transaction.
 */
export async function resolveReport(
  ctx: AppContext,
  admin: AuthUser,
  id: number,
  input: { action: ReportAction; category?: ReportCategory; reason?: string },
): Promise<AdminReport> {
  const { action } = input;
  const reason =
    action === 'remove'
      ? { category: input.category ?? ('other' as const), text: input.reason ?? null }
      : null;
  const closed = await ctx.transaction(async () => {
    const now = ctx.clock.now();
    const resolved = await closeCase(ctx, id, { action, adminId: admin.id, now, reason });
    const details: Record<string, string | number | boolean | null> = {
      targetType: resolved.targetType,
      targetId: resolved.targetId,
      reports: resolved.reportCount,
    };
    if (reason) {
      details.category = reason.category;
      details.reason = reason.text;
    }
    // The post a comment was on: the audit log links to it (issue 41).
    const comment =
      resolved.targetType === 'comment'
        ? (await commentsForModeration(ctx, [resolved.targetId])).get(resolved.targetId)
        : undefined;
    if (comment) details.postId = comment.postId;
    if (reason) {
      if (resolved.targetType === 'post') {
        const post = (await postsForModeration(ctx, [resolved.targetId])).get(resolved.targetId);
        if (post && (await removePostByModeration(ctx, resolved.targetId))) {
          details.content = excerpt(post.content);
          // Their files are deleted with the post (modules/media/janitor.ts).
          if (post.images.length > 0) details.images = post.images.length;
          const decisionId = await recordDecision(ctx, {
            kind: 'post_removal',
            memberId: post.authorId,
            reason,
            targetId: resolved.targetId,
            postId: resolved.targetId,
            content: excerpt(post.content),
            decidedAt: now,
            decidedBy: admin.id,
          });
          details.decision = decisionId;
          await notify(ctx, 'content_removed', post.authorId, {
            targetType: 'post',
            content: excerpt(post.content),
            decisionId,
            reason,
          });
        }
      } else if (resolved.targetType === 'comment') {
        const removed = comment
          ? await removeCommentByModeration(ctx, resolved.targetId, now)
          : null;
        if (comment && removed) {
          // Copies of the removed comments shared to timelines go too; the counts are recounted.
          const copies: number[] = [];
          for (const postId of await postIdsSharingComments(ctx, removed.commentIds)) {
            if (await removePostByModeration(ctx, postId)) copies.push(postId);
          }
          await recountPosts(ctx, [removed.postId]);
          details.content = excerpt(comment.content);
          const decisionId = await recordDecision(ctx, {
            kind: 'comment_removal',
            memberId: comment.authorId,
            reason,
            targetId: resolved.targetId,
            postId: removed.postId,
            content: excerpt(comment.content),
            // What lifting an appeal brings back with the comment.
            alsoRemoved: {
              commentIds: removed.commentIds.filter((c) => c !== resolved.targetId),
              postIds: copies,
            },
            decidedAt: now,
            decidedBy: admin.id,
          });
          details.decision = decisionId;
          await notify(ctx, 'content_removed', comment.authorId, {
            targetType: 'comment',
            content: excerpt(comment.content),
            decisionId,
            reason,
          });
        }
      } else {
        const target = await findAccount(ctx, resolved.targetId);
        if (!target.suspendedAt) {
          await suspend(ctx, admin, resolved.targetId, {
            category: reason.category,
            text: reason.text ?? 'Suspended after reports',
          });
        }
      }
    }
    await recordAudit(ctx, {
      adminId: admin.id,
      action: action === 'remove' ? 'report.remove' : 'report.dismiss',
      target: { type: 'report', id },
      details,
    });
    return resolved;
  });
  const [view] = await presentReports(ctx, [closed]);
  return view!;
}
