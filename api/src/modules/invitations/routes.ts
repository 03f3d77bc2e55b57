import Router from '@koa/router';
import type { HttpContext } from '../../context';
import type { AppState } from '../../platform/auth';
import { describeInvitation } from './invitations';

/** `GET /api/invitations/:token` (public): the registration page greets the invited alum. */
export function invitationRoutes(app: HttpContext) {
  const router = new Router<AppState>({ prefix: '/api/invitations' });
  const limit = app.rateLimits.perIp('invitation', app.config.rateLimits.invitation);
  router.get('/:token', limit, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await describeInvitation(app, ctx.params.token ?? '');
  });
  return router;
}
