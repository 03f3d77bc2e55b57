import Router from '@koa/router';
import { accountApplicationRequestSchema } from '@campus/contracts';
import type { HttpContext } from '../../context';
import type { AppState } from '../../platform/auth';
import { parseInput } from '../../platform/validation';
import { submitApplication } from './applications';

export function accountApplicationRoutes(app: HttpContext) {
  const { rateLimits } = app;
  const rules = app.config.rateLimits;
  const router = new Router<AppState>({ prefix: '/api/account-application' });

  router.post('/', rateLimits.perIp('application', rules.application), async (ctx) => {
    const input = parseInput(accountApplicationRequestSchema, ctx.request.body);
    const contact = input.contactInfo.trim().toLowerCase();
    const attempt = await rateLimits.take('application-contact', contact, rules.applicationContact);
    if (!attempt.allowed) throw rateLimits.refusal(attempt);
    ctx.status = 201;
    ctx.body = await submitApplication(app, input);
  });

  return router;
}
