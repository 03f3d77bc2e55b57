import Router from '@koa/router';
import type { Middleware } from 'koa';
import { reportRequestSchema } from '@campus/contracts';
import { currentUser, type AppState } from '../../platform/auth';
import type { RateLimitRule } from '../../platform/config';
import type { RateLimits } from '../../platform/rate-limit';
import { parseInput } from '../../platform/validation';
import type { ReportService } from './service';

/** `POST /api/reports` (members). The administrator's queue is under /api/admin (admin module). */
export function reportRoutes(
  reports: ReportService,
  requireAuth: Middleware<AppState>,
  deps: { rateLimits: RateLimits; rules: { report: RateLimitRule } },
) {
  const router = new Router<AppState>({ prefix: '/api/reports' });
  // Counted per member after sign-in, like feedback.
  router.post(
    '/',
    requireAuth,
    deps.rateLimits.perMember('report', deps.rules.report),
    async (ctx) => {
      const input = parseInput(reportRequestSchema, ctx.request.body);
      ctx.status = 201;
      ctx.body = await reports.submitReport(currentUser(ctx.state).id, input);
    },
  );
  return router;
}
