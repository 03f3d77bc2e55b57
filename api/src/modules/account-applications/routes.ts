import Router from '@koa/router';
import { accountApplicationRequestSchema } from '@campus/contracts';
import type { AppState } from '../../platform/auth';
import type { RateLimitRule } from '../../platform/config';
import { rateLimit } from '../../platform/rate-limit';
import { parseInput } from '../../platform/validation';
import type { AccountApplicationService } from './service';

export function accountApplicationRoutes(
  applications: AccountApplicationService,
  deps: { adminUserId: number; rateLimit: RateLimitRule },
) {
  const { submitApplication } = applications;
  const router = new Router<AppState>({ prefix: '/api/account-application' });

  router.post('/', rateLimit(deps.rateLimit), async (ctx) => {
    const input = parseInput(accountApplicationRequestSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await submitApplication(input, deps.adminUserId);
  });

  return router;
}
