import Router from '@koa/router';
import type { Middleware } from 'koa';
import { feedbackRequestSchema } from '@campus/contracts';
import { currentUser, type AppState } from '../../platform/auth';
import type { RateLimitRule } from '../../platform/config';
import type { RateLimits } from '../../platform/rate-limit';
import { parseInput } from '../../platform/validation';
import type { FeedbackService } from './service';

export function feedbackRoutes(
  feedback: FeedbackService,
  requireAuth: Middleware<AppState>,
  deps: {
    adminUserId: number;
    rateLimits: RateLimits;
    rules: { feedback: RateLimitRule; feedbackIp: RateLimitRule };
  },
) {
  const { submitFeedback } = feedback;
  const router = new Router<AppState>({ prefix: '/api/feedback' });

  // Counted after sign-in: a caller that is not signed in (a 401) counts against nobody, so it
  // cannot use up the members' feedback on a shared campus address.
  router.post(
    '/',
    requireAuth,
    deps.rateLimits.perMember('feedback', deps.rules.feedback),
    deps.rateLimits.perIp('feedback-ip', deps.rules.feedbackIp),
    async (ctx) => {
      const { feedback } = parseInput(feedbackRequestSchema, ctx.request.body);
      ctx.status = 201;
      ctx.body = await submitFeedback(currentUser(ctx.state).id, feedback, deps.adminUserId);
    },
  );

  return router;
}
