import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { submitReport } from './reports';

/** `POST /api/reports` (members). The administrator's queue is under /api/admin (admin module). */
export function reportRoutes(app: HttpContext) {
  const router = new Router<AppState>();
  // Counted per member after sign-in, like feedback.
  const before = [
    app.requireAuth,
    app.rateLimits.perMember('report', app.config.rateLimits.report),
  ];
  bindCall(router, calls.sendReport, { before }, (ctx, { body }) =>
    submitReport(app, currentUser(ctx.state).id, body),
  );
  return router;
}
