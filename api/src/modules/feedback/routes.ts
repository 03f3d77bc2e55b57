import Router from '@koa/router';
import { feedbackRequestSchema } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { parseInput } from '../../platform/validation';
import { submitFeedback } from './send-feedback';

export function feedbackRoutes(app: HttpContext) {
  const { rateLimits } = app;
  const rules = app.config.rateLimits;
  const router = new Router<AppState>({ prefix: '/api/feedback' });

  // Counted after sign-in: a caller that is not signed in (a 401) counts against nobody, so it
  // cannot use up the members' feedback on a shared campus address.
  router.post(
    '/',
    app.requireAuth,
    rateLimits.perMember('feedback', rules.feedback),
    rateLimits.perIp('feedback-ip', rules.feedbackIp),
    async (ctx) => {
      const { feedback } = parseInput(feedbackRequestSchema, ctx.request.body);
      ctx.status = 201;
      ctx.body = await submitFeedback(app, currentUser(ctx.state).id, feedback);
    },
  );

  return router;
}
