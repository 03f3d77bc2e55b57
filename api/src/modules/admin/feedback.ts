import type {
  AdminFeedback,
  AdminFeedbackUpdate,
  AdminPage,
  FeedbackStatus,
} from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { recordAudit } from '../audit/audit-log';
import { listFeedback as feedbackOfStatus } from '../feedback/queries';
import { updateFeedback as storeFeedbackUpdate } from '../feedback/update-feedback';
import { accountRefs } from '../users/admin-accounts';
import { memberRef, window, type Page } from './present';

// What the feedback module answers (this module never imports another module's model).
type FeedbackDoc = Awaited<ReturnType<typeof feedbackOfStatus>>['items'][number];

async function presentFeedback(ctx: AppContext, docs: FeedbackDoc[]): Promise<AdminFeedback[]> {
  const authors = await accountRefs(
    ctx,
    docs.map((f) => f.userId),
  );
  return docs.map((f) => ({
    id: f._id,
    message: f.message,
    status: f.status,
    author: memberRef(ctx, authors.get(f.userId), ctx.config.publicUrl),
    reply: f.reply ?? null,
    repliedAt: f.repliedAt?.toISOString() ?? null,
    createdAt: f.createdAt.toISOString(),
    updatedAt: f.updatedAt.toISOString(),
  }));
}

export async function listFeedback(
  ctx: AppContext,
  query: Page & { status: FeedbackStatus },
): Promise<AdminPage<AdminFeedback>> {
  const { items, total } = await feedbackOfStatus(ctx, query.status, window(query));
  return {
    items: await presentFeedback(ctx, items),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

export async function updateFeedback(
  ctx: AppContext,
  admin: AuthUser,
  id: number,
  update: AdminFeedbackUpdate,
): Promise<AdminFeedback> {
  const updated = await ctx.transaction(async () => {
    const { before, after } = await storeFeedbackUpdate(ctx, id, update, admin.id);
    await recordAudit(ctx, {
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
  const [view] = await presentFeedback(ctx, [updated]);
  return view!;
}
