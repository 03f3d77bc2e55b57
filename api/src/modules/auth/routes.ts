import Router from '@koa/router';
import { loginRequestSchema, registerRequestSchema } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { HttpError } from '../../platform/errors';
import { parseInput } from '../../platform/validation';
import { INVITED_ACCOUNT_READY, register, registerInvited } from './register';
import { EMAIL_VERIFIED, INVALID_VERIFICATION_LINK, login, me, verifyEmail } from './sign-in';

/** The 429 of a sign-in over the per-account limit: the same for an account that does not exist. */
export const TOO_MANY_SIGN_IN_ATTEMPTS =
  'Too many failed sign-in attempts for this account. Please try again later.';

export function authRoutes(app: HttpContext) {
  const { rateLimits } = app;
  const rules = app.config.rateLimits;
  const router = new Router<AppState>({ prefix: '/api/auth' });

  router.post('/register', rateLimits.perIp('register', rules.register), async (ctx) => {
    const input = parseInput(registerRequestSchema, ctx.request.body);
    const perEmail = await rateLimits.take(
      'register-email',
      input.email.trim().toLowerCase(),
      rules.registerEmail,
    );
    if (!perEmail.allowed) throw rateLimits.refusal(perEmail);
    const { invitationToken } = input;
    if (invitationToken !== undefined) {
      const invited = await registerInvited(app, { ...input, invitationToken });
      ctx.status = 201;
      ctx.body = {
        message: invited.verified
          ? INVITED_ACCOUNT_READY
          : 'Account created successfully! Check your inbox and click the verification link to activate your account.',
        user: invited.user,
      };
      return;
    }
    const user = await register(app, input);
    ctx.status = 201;
    ctx.body = {
      message:
        'Account created successfully! Check your inbox and click the verification link to activate your account.',
      user,
    };
  });

  /**
   * Behind a campus NAT, many members share one address: the address only stops floods (a high
   * limit), and the guessing limit is per account. Every attempt counts before the password is
   * checked (so a parallel burst cannot slip past) and a sign-in that was not a wrong password
   * (a success, an unverified account, an error) is taken back: success never counts. The 429 of
   * a locked account reads the same whether the account exists or not.
   */
  router.post('/login', async (ctx) => {
    const input = parseInput(loginRequestSchema, ctx.request.body);
    const perIp = await rateLimits.take('login', ctx.ip, rules.login);
    if (!perIp.allowed) {
      await perIp.refund();
      throw rateLimits.refusal(perIp);
    }
    const perAccount = await rateLimits.take(
      'login-failures',
      input.email.trim().toLowerCase(),
      rules.loginFailures,
    );
    if (!perAccount.allowed) {
      await Promise.all([perIp.refund(), perAccount.refund()]);
      throw rateLimits.refusal(perAccount, TOO_MANY_SIGN_IN_ATTEMPTS);
    }
    try {
      ctx.body = await login(app, input);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 401) {
        await Promise.all([perIp.refund(), perAccount.refund()]);
      }
      throw err;
    }
    await Promise.all([perIp.refund(), perAccount.refund()]);
  });

  router.get('/verify/:token', rateLimits.perIp('verify', rules.verify), async (ctx) => {
    const token = ctx.params.token ?? '';
    const perToken = await rateLimits.take('verify-token', token, rules.verifyToken);
    if (!perToken.allowed) throw rateLimits.refusal(perToken);
    if (await verifyEmail(app, token)) {
      ctx.body = { message: EMAIL_VERIFIED };
    } else {
      ctx.status = 400;
      ctx.body = { error: INVALID_VERIFICATION_LINK, message: INVALID_VERIFICATION_LINK };
    }
  });

  // Who the caller is and what they may do: clients start their session with it.
  router.get('/me', app.requireAuth, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await me(app, currentUser(ctx.state));
  });

  return router;
}
