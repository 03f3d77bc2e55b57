import Router from '@koa/router';
import type { Middleware } from 'koa';
import {
  changePasswordRequestSchema,
  deleteAccountRequestSchema,
  emailOnlyRequestSchema,
  resetPasswordRequestSchema,
} from '@campus/contracts';
import { currentUser, type AppState } from '../../platform/auth';
import type { RateLimitRule } from '../../platform/config';
import type { RateLimits } from '../../platform/rate-limit';
import { parseInput } from '../../platform/validation';
import { userIdParam } from '../users/params';
import {
  PASSWORD_RESET,
  RESET_LINK_SENT,
  VERIFICATION_LINK_SENT,
  type AccountLifecycleOptions,
  type AccountLifecycleService,
} from './service';

export interface AccountLifecycleRouteOptions extends AccountLifecycleOptions {
  rateLimits: RateLimits;
  rules: {
    passwordReset: RateLimitRule;
    verificationResend: RateLimitRule;
    accountEmails: RateLimitRule;
    passwordCheck: RateLimitRule;
  };
}

/**
 * `POST /api/auth/forgot-password`, `/reset-password`, `/logout-all`, `/resend-verification`,
 * `PUT /api/auth/password` and `DELETE /api/users/:id`.
 */
export function accountLifecycleRoutes(
  service: AccountLifecycleService,
  requireAuth: Middleware<AppState>,
  options: AccountLifecycleRouteOptions,
) {
  const { rateLimits, rules } = options;
  // Per address, across both kinds of e-mail: nobody can make us flood someone's inbox.
  const mayEmail = async (email: string) =>
    (await rateLimits.take('account-emails', email.trim().toLowerCase(), rules.accountEmails))
      .allowed;
  const perIp = (name: 'passwordReset' | 'verificationResend') =>
    rateLimits.perIp(name, rules[name]);
  // After requireAuth: the member's own attempts count, never an anonymous caller's.
  const passwordChecks = rateLimits.perMember('passwordCheck', rules.passwordCheck);
  const router = new Router<AppState>();

  router.post('/api/auth/forgot-password', perIp('passwordReset'), async (ctx) => {
    const { email } = parseInput(emailOnlyRequestSchema, ctx.request.body);
    if (await mayEmail(email)) await service.requestPasswordReset(email, options);
    ctx.status = 202;
    ctx.body = { message: RESET_LINK_SENT };
  });

  router.post('/api/auth/reset-password', perIp('passwordReset'), async (ctx) => {
    await service.resetPassword(parseInput(resetPasswordRequestSchema, ctx.request.body), options);
    ctx.body = { message: PASSWORD_RESET };
  });

  router.post('/api/auth/resend-verification', perIp('verificationResend'), async (ctx) => {
    const { email } = parseInput(emailOnlyRequestSchema, ctx.request.body);
    if (await mayEmail(email)) await service.resendVerification(email, options);
    ctx.status = 202;
    ctx.body = { message: VERIFICATION_LINK_SENT };
  });

  router.put('/api/auth/password', requireAuth, passwordChecks, async (ctx) => {
    const input = parseInput(changePasswordRequestSchema, ctx.request.body);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await service.changePassword(currentUser(ctx.state), input, options);
  });

  router.post('/api/auth/logout-all', requireAuth, async (ctx) => {
    await service.signOutEverywhere(currentUser(ctx.state));
    ctx.status = 204;
  });

  router.delete('/api/users/:id', requireAuth, passwordChecks, async (ctx) => {
    const actor = currentUser(ctx.state);
    const userId = userIdParam(ctx.params.id);
    const { password } = parseInput(deleteAccountRequestSchema, ctx.request.body);
    await service.deleteAccount(actor, userId, password, options);
    ctx.status = 204;
  });

  return router;
}
