import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { HttpError } from '../../platform/errors';
import { INVITED_ACCOUNT_READY, register, registerInvited } from './register';
import { login, me } from './sign-in';
import {
  clearSignUpCookie,
  newSignUpSecret,
  setSignUpCookie,
  signUpSecretHashOf,
} from './sign-up-cookie';
import {
  CHOOSE_PASSWORD_TO_VERIFY,
  EMAIL_VERIFIED,
  INVALID_VERIFICATION_LINK,
  openVerificationLink,
  verifyWithPassword,
} from './verify-email';

/** The 429 of a sign-in over the per-account limit: the same for an account that does not exist. */
export const TOO_MANY_SIGN_IN_ATTEMPTS =
  'Too many failed sign-in attempts for this account. Please try again later.';

export function authRoutes(app: HttpContext) {
  const { rateLimits } = app;
  const rules = app.config.rateLimits;
  const router = new Router<AppState>();

  const registered =
    'Account created successfully! Check your inbox and click the verification link to activate your account.';
  const perIpRegistrations = [rateLimits.perIp('register', rules.register)];
  bindCall(router, calls.register, { before: perIpRegistrations }, async (ctx, { body }) => {
    const perEmail = await rateLimits.take(
      'register-email',
      body.email.trim().toLowerCase(),
      rules.registerEmail,
    );
    if (!perEmail.allowed) throw rateLimits.refusal(perEmail);
    // This browser's proof that it typed the password (verify-email.ts): set once registered.
    const signUp = newSignUpSecret();
    const { invitationToken } = body;
    if (invitationToken !== undefined) {
      const invited = await registerInvited(app, { ...body, invitationToken }, signUp.hash);
      if (!invited.verified) setSignUpCookie(ctx, app.config, signUp.secret);
      return {
        message: invited.verified ? INVITED_ACCOUNT_READY : registered,
        user: invited.user,
      };
    }
    const user = await register(app, body, signUp.hash);
    setSignUpCookie(ctx, app.config, signUp.secret);
    return { message: registered, user };
  });

  /**
   * Behind a campus NAT, many members share one address: the address only stops floods (a high
   * limit), and the guessing limit is per account. Every attempt counts before the password is
   * checked (so a parallel burst cannot slip past) and a sign-in that was not a wrong password
   * (a success, an unverified account, an error) is taken back: success never counts. The 429 of
   * a locked account reads the same whether the account exists or not.
   */
  bindCall(router, calls.login, {}, async (ctx, { body }) => {
    const perIp = await rateLimits.take('login', ctx.ip, rules.login);
    if (!perIp.allowed) {
      await perIp.refund();
      throw rateLimits.refusal(perIp);
    }
    const perAccount = await rateLimits.take(
      'login-failures',
      body.email.trim().toLowerCase(),
      rules.loginFailures,
    );
    if (!perAccount.allowed) {
      await Promise.all([perIp.refund(), perAccount.refund()]);
      throw rateLimits.refusal(perAccount, TOO_MANY_SIGN_IN_ATTEMPTS);
    }
    let answer: Awaited<ReturnType<typeof login>>;
    try {
      answer = await login(app, body);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 401) {
        await Promise.all([perIp.refund(), perAccount.refund()]);
      }
      throw err;
    }
    await Promise.all([perIp.refund(), perAccount.refund()]);
    return answer;
  });

  /**
   * A verification link proves the mailbox, not the registration password: it verifies at once
   * only in the browser that registered (its sign-up cookie); elsewhere it answers
   * `passwordRequired` and stays valid until its holder chooses the password with a POST.
   */
  const verification = {
    before: [rateLimits.perIp('verify', rules.verify)],
    cacheControl: 'no-store',
  };
  const takeTokenAttempt = async (token: string) => {
    const perToken = await rateLimits.take('verify-token', token, rules.verifyToken);
    if (!perToken.allowed) throw rateLimits.refusal(perToken);
  };
  const invalidLink = () =>
    new HttpError(400, INVALID_VERIFICATION_LINK, {}, undefined, {
      error: INVALID_VERIFICATION_LINK,
    });
  bindCall(router, calls.verifyEmail, verification, async (ctx, { params }) => {
    await takeTokenAttempt(params.token);
    const opened = await openVerificationLink(app, params.token, signUpSecretHashOf(ctx));
    if (opened === 'invalid') throw invalidLink();
    if (opened === 'password-required') {
      return { message: CHOOSE_PASSWORD_TO_VERIFY, passwordRequired: true as const };
    }
    clearSignUpCookie(ctx, app.config);
    return { message: EMAIL_VERIFIED };
  });
  bindCall(router, calls.verifyEmailWithPassword, verification, async (_ctx, { params, body }) => {
    await takeTokenAttempt(params.token);
    if (!(await verifyWithPassword(app, params.token, body.password))) throw invalidLink();
    return { message: EMAIL_VERIFIED };
  });

  // Who the caller is and what they may do: clients start their session with it.
  const member = { before: [app.requireAuth], cacheControl: 'no-store' };
  bindCall(router, calls.me, member, (ctx) => me(app, currentUser(ctx.state)));

  return router;
}
