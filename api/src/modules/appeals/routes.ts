import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { fileAppeal, fileSuspensionAppeal } from './appeals';

/**
 * `POST /api/appeals` (a signed-in member) and `POST /api/appeals/suspension` (a suspended
 * member, signed out, with the ticket of their sign-in). Counted like reports: per member, and
 * per address for the signed-out one. The administrator's queue is under /api/admin.
 */
export function appealRoutes(app: HttpContext) {
  const router = new Router<AppState>();
  const rule = app.config.rateLimits.report;
  bindCall(
    router,
    calls.fileAppeal,
    { before: [app.requireAuth, app.rateLimits.perMember('appeal', rule)] },
    (ctx, { body }) => fileAppeal(app, currentUser(ctx.state).id, body),
  );
  bindCall(
    router,
    calls.appealSuspension,
    { before: [app.rateLimits.perIp('suspension-appeal', rule)] },
    (_ctx, { body }) => fileSuspensionAppeal(app, body),
  );
  return router;
}
