import Router from '@koa/router';
import type { AppState } from '../../platform/auth';
import type { RateLimitRule } from '../../platform/config';
import type { RateLimits } from '../../platform/rate-limit';
import type { InvitationService } from './service';

/** `GET /api/invitations/:token` (public): the registration page greets the invited alum. */
export function invitationRoutes(
  invitations: InvitationService,
  deps: { rateLimits: RateLimits; rules: { invitation: RateLimitRule } },
) {
  const router = new Router<AppState>({ prefix: '/api/invitations' });
  router.get('/:token', deps.rateLimits.perIp('invitation', deps.rules.invitation), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await invitations.describeInvitation(ctx.params.token ?? '');
  });
  return router;
}
