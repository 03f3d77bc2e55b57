import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import type { AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { submitApplication } from './applications';

export function accountApplicationRoutes(app: HttpContext) {
  const { rateLimits } = app;
  const rules = app.config.rateLimits;
  const router = new Router<AppState>();
  const before = [rateLimits.perIp('application', rules.application)];
  bindCall(router, calls.applyForAccount, { before }, async (_ctx, { body }) => {
    const contact = body.contactInfo.trim().toLowerCase();
    const attempt = await rateLimits.take('application-contact', contact, rules.applicationContact);
    if (!attempt.allowed) throw rateLimits.refusal(attempt);
    return submitApplication(app, body);
  });
  return router;
}
