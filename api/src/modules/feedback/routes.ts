import Router from '@koa/router';
import type { Middleware } from 'koa';
import { feedbackRequestSchema } from '@campus/contracts';
import { currentUser, type AppState } from '../../platform/auth';
import type { RateLimitRule } from '../../platform/config';
import { rateLimit } from '../../platform/rate-limit';
import { parseInput } from '../../platform/validation';
import type { FeedbackService } from './service';

export function feedbackRoutes(
  feedback: FeedbackService,
  requireAuth: Middleware<AppState>,
  deps: { adminUserId: number; rateLimit: RateLimitRule },
) {
  const { submitFeedback } = feedback;
  const router = new Router<AppState>({ prefix: '/api/feedback' });

  router.post('/', rateLimit(deps.rateLimit), requireAuth, async (ctx) => {
    const { feedback } = parseInput(feedbackRequestSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await submitFeedback(currentUser(ctx.state).id, feedback, deps.adminUserId);
  });

  return router;
}
