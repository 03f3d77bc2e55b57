import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { submitFeedback } from './send-feedback';

export function feedbackRoutes(app: HttpContext) {
  const { rateLimits } = app;
  const rules = app.config.rateLimits;
  const router = new Router<AppState>();
  // Counted after sign-in: a caller that is not signed in (a 401) counts against nobody, so it
  // cannot use up the members' feedback on a shared campus address.
  const before = [
    app.requireAuth,
    rateLimits.perMember('feedback', rules.feedback),
    rateLimits.perIp('feedback-ip', rules.feedbackIp),
  ];
  bindCall(router, calls.sendFeedback, { before }, (ctx, { body }) =>
    submitFeedback(app, currentUser(ctx.state).id, body.feedback),
  );
  return router;
}
