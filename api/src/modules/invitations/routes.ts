import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import type { AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { describeInvitation } from './invitations';

/** `GET /api/invitations/:token` (public): the registration page greets the invited alum. */
export function invitationRoutes(app: HttpContext) {
  const router = new Router<AppState>();
  const options = {
    before: [app.rateLimits.perIp('invitation', app.config.rateLimits.invitation)],
    cacheControl: 'no-store',
  };
  bindCall(router, calls.invitation, options, (_ctx, { params }) =>
    describeInvitation(app, params.token),
  );
  return router;
}
