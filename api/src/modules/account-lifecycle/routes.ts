import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { mayMailAccountEmail } from '../auth/account-emails';
import { clearSessionCookies } from '../sessions/cookies';
import { signInDevice } from '../sessions/routes';
import { USER_NOT_FOUND } from '../users/queries';
import { deleteAccount } from './delete-account';
import {
  changePassword,
  PASSWORD_RESET,
  requestPasswordReset,
  RESET_LINK_SENT,
  resetLinkStatus,
  resetPassword,
  signOutEverywhere,
} from './passwords';
import { resendVerification, VERIFICATION_LINK_SENT } from './resend-verification';

/**
 * `POST /api/auth/forgot-password`, `/reset-password`, `/logout-all`, `/resend-verification`,
 * `GET /api/auth/reset-password/:token`,
 * `PUT /api/auth/password` and `DELETE /api/users/:id`.
 */
export function accountLifecycleRoutes(app: HttpContext) {
  const { rateLimits, requireAuth } = app;
  const rules = app.config.rateLimits;
  // Per address and kind: nobody can make us flood someone's inbox, and past the allowance a
  // request changes nothing, so the latest e-mail's link keeps working for its owner.
  const perIp = (name: 'passwordReset' | 'verificationResend') =>
    rateLimits.perIp(name, rules[name]);
  // After requireAuth: the member's own attempts count, never an anonymous caller's.
  const passwordChecks = rateLimits.perMember('passwordCheck', rules.passwordCheck);
  const router = new Router<AppState>();
  const member = { before: [requireAuth] };
  const checkingPassword = { before: [requireAuth, passwordChecks], notFound: USER_NOT_FOUND };

  bindCall(
    router,
    calls.forgotPassword,
    { before: [perIp('passwordReset')] },
    async (_c, { body }) => {
      if (await mayMailAccountEmail(app, 'reset', body.email)) {
        await requestPasswordReset(app, body.email);
      }
      return { message: RESET_LINK_SENT };
    },
  );
  bindCall(
    router,
    calls.resetPassword,
    { before: [perIp('passwordReset')] },
    async (_c, { body }) => {
      await resetPassword(app, body);
      return { message: PASSWORD_RESET };
    },
  );
  bindCall(
    router,
    calls.resetLinkStatus,
    { before: [perIp('passwordReset')], cacheControl: 'no-store' },
    (_c, { params }) => resetLinkStatus(app, params.token),
  );
  const resendLimit = { before: [perIp('verificationResend')] };
  bindCall(router, calls.resendVerification, resendLimit, async (_ctx, { body }) => {
    if (await mayMailAccountEmail(app, 'verification', body.email)) {
      await resendVerification(app, body.email);
    }
    return { message: VERIFICATION_LINK_SENT };
  });
  // Every session of the member ends; this device gets a new one (cookies, and the answer's token).
  bindCall(
    router,
    calls.changePassword,
    { ...checkingPassword, cacheControl: 'no-store' },
    async (ctx, { body }) => {
      const user = currentUser(ctx.state);
      await changePassword(app, user, body);
      return { token: await signInDevice(app, ctx, user.id) };
    },
  );
  bindCall(router, calls.signOutEverywhere, member, async (ctx) => {
    await signOutEverywhere(app, currentUser(ctx.state));
    clearSessionCookies(ctx, app.config);
  });
  bindCall(router, calls.deleteAccount, checkingPassword, (ctx, { params, body }) =>
    deleteAccount(app, currentUser(ctx.state), params.id, body.password),
  );
  return router;
}
