import Router from '@koa/router';
import { reportRequestSchema } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { parseInput } from '../../platform/validation';
import { submitReport } from './reports';

/** `POST /api/reports` (members). The administrator's queue is under /api/admin (admin module). */
export function reportRoutes(app: HttpContext) {
  const router = new Router<AppState>({ prefix: '/api/reports' });
  // Counted per member after sign-in, like feedback.
  router.post(
    '/',
    app.requireAuth,
    app.rateLimits.perMember('report', app.config.rateLimits.report),
    async (ctx) => {
      const input = parseInput(reportRequestSchema, ctx.request.body);
      ctx.status = 201;
      ctx.body = await submitReport(app, currentUser(ctx.state).id, input);
    },
  );
  return router;
}
