import Router from '@koa/router';
import {
  changePasswordRequestSchema,
  deleteAccountRequestSchema,
  emailOnlyRequestSchema,
  resetPasswordRequestSchema,
} from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { parseInput } from '../../platform/validation';
import { userIdParam } from '../users/params';
import { deleteAccount } from './delete-account';
import {
  changePassword,
  PASSWORD_RESET,
  requestPasswordReset,
  RESET_LINK_SENT,
  resetPassword,
  signOutEverywhere,
} from './passwords';
import { resendVerification, VERIFICATION_LINK_SENT } from './resend-verification';

/**
 * `POST /api/auth/forgot-password`, `/reset-password`, `/logout-all`, `/resend-verification`,
 * `PUT /api/auth/password` and `DELETE /api/users/:id`.
 */
export function accountLifecycleRoutes(app: HttpContext) {
  const { rateLimits, requireAuth } = app;
  const rules = app.config.rateLimits;
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
    if (await mayEmail(email)) await requestPasswordReset(app, email);
    ctx.status = 202;
    ctx.body = { message: RESET_LINK_SENT };
  });

  router.post('/api/auth/reset-password', perIp('passwordReset'), async (ctx) => {
    await resetPassword(app, parseInput(resetPasswordRequestSchema, ctx.request.body));
    ctx.body = { message: PASSWORD_RESET };
  });

  router.post('/api/auth/resend-verification', perIp('verificationResend'), async (ctx) => {
    const { email } = parseInput(emailOnlyRequestSchema, ctx.request.body);
    if (await mayEmail(email)) await resendVerification(app, email);
    ctx.status = 202;
    ctx.body = { message: VERIFICATION_LINK_SENT };
  });

  router.put('/api/auth/password', requireAuth, passwordChecks, async (ctx) => {
    const input = parseInput(changePasswordRequestSchema, ctx.request.body);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await changePassword(app, currentUser(ctx.state), input);
  });

  router.post('/api/auth/logout-all', requireAuth, async (ctx) => {
    await signOutEverywhere(app, currentUser(ctx.state));
    ctx.status = 204;
  });

  router.delete('/api/users/:id', requireAuth, passwordChecks, async (ctx) => {
    const actor = currentUser(ctx.state);
    const userId = userIdParam(ctx.params.id);
    const { password } = parseInput(deleteAccountRequestSchema, ctx.request.body);
    await deleteAccount(app, actor, userId, password);
    ctx.status = 204;
  });

  return router;
}
