import Router from '@koa/router';
import { accountApplicationRequestSchema } from '@campus/contracts';
import type { AppState } from '../../platform/auth';
import type { RateLimitRule } from '../../platform/config';
import type { RateLimits } from '../../platform/rate-limit';
import { parseInput } from '../../platform/validation';
import type { AccountApplicationService } from './service';

export function accountApplicationRoutes(
  applications: AccountApplicationService,
  deps: {
    adminUserId: number;
    rateLimits: RateLimits;
    rules: { application: RateLimitRule; applicationContact: RateLimitRule };
  },
) {
  const { submitApplication } = applications;
  const router = new Router<AppState>({ prefix: '/api/account-application' });

  const { rateLimits, rules } = deps;
  router.post('/', rateLimits.perIp('application', rules.application), async (ctx) => {
    const input = parseInput(accountApplicationRequestSchema, ctx.request.body);
    const contact = input.contactInfo.trim().toLowerCase();
    const attempt = await rateLimits.take('application-contact', contact, rules.applicationContact);
    if (!attempt.allowed) throw rateLimits.refusal(attempt);
    ctx.status = 201;
    ctx.body = await submitApplication(input, deps.adminUserId);
  });

  return router;
}
