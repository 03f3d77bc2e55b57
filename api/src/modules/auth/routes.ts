import Router from '@koa/router';
import { calls, PASSWORD_MIN_LENGTH } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { HttpError } from '../../platform/errors';
import { withDeviceSession } from '../sessions/routes';
import { mayMailAccountEmail } from './account-emails';
import { accountKey, deviceToken, knownDevice, rememberDevice } from './known-devices';
import { INVITED_ACCOUNT_READY, register, registerInvited } from './register';
import { login, me, signInVerifiedAccount } from './sign-in';
import { takeSignInAttempt } from './sign-in-delays';
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

/**
 * The 429 of a sign-in attempt made before its account's delay is over (its password was not
 * looked at): the same for an account that does not exist.
 */
export function signInTooEarly(retryAfter: number): string {
  const wait = `${retryAfter} second${retryAfter === 1 ? '' : 's'}`;
  return `Too many failed sign-in attempts for this account. Please wait ${wait} and try again.`;
}

/** The 429 of a wrong password from an address that sent a flood of them. */
export const TOO_MANY_FAILED_SIGN_INS_FROM_ADDRESS =
  'Too many failed sign-in attempts from your network. Please try again later.';

export function authRoutes(app: HttpContext) {
  const { rateLimits } = app;
  const rules = app.config.rateLimits;
  const router = new Router<AppState>();

  const registered =
    'Account created successfully! Check your inbox and click the verification link to activate your account.';
  // Per address only a flood far beyond an enrolment week behind one NAT address is refused; per
  // e-mail address nothing is refused: past its e-mail allowance a registration sends nothing
  // and keeps the link already sent (auth/account-emails.ts).
  const perIpRegistrations = [rateLimits.perIp('register', rules.register)];
  bindCall(router, calls.register, { before: perIpRegistrations }, async (ctx, { body }) => {
    // This browser's proof that it typed the password (verify-email.ts): set once registered.
    const signUp = newSignUpSecret();
    const { invitationToken } = body;
    if (invitationToken !== undefined) {
      const invited = await registerInvited(app, { ...body, invitationToken }, signUp.hash);
      if (!invited.verified) {
        setSignUpCookie(ctx, app.config, signUp.secret);
        return { message: registered, user: invited.user };
      }
      // The mailed invitation link proved the mailbox and this browser typed the password: it is
      // signed in at once (issue 41), with session cookies as at sign-in.
      const answer = await signInVerifiedAccount(app, invited.user.id);
      if (!answer) return { message: INVITED_ACCOUNT_READY, user: invited.user };
      const { user, firstSignIn } = await withDeviceSession(app, ctx, answer);
      return {
        message: INVITED_ACCOUNT_READY,
        user,
        signedIn: true as const,
        ...(firstSignIn ? { firstSignIn } : {}),
      };
    }
    const renewLink = await mayMailAccountEmail(app, 'verification', body.email);
    const user = await register(app, body, signUp.hash, { renewLink });
    setSignUpCookie(ctx, app.config, signUp.secret);
    return { message: registered, user };
  });

  /**
   * Guessing is slowed per account, never refused for the right password (auth/sign-in-delays.ts):
   * an attempt made before the account's delay is over gets 429 with `Retry-After`, unread. A
   * device that signed in to the account before (its device cookie, auth/known-devices.ts) has
   * delays of its own, so other devices' failures never slow it. Per client address only wrong
   * passwords count, after the check: past that flood limit a wrong password gets 429 instead of
   * 401, and a right one, of any account behind the address, still signs in.
   */
  bindCall(router, calls.login, {}, async (ctx, { body }) => {
    const account = accountKey(body.email);
    const token = deviceToken(ctx);
    const device = await knownDevice(app, token, account);
    const attempt = await takeSignInAttempt(app, device ? `${account}:${device}` : account);
    if (!attempt.evaluated) {
      throw new HttpError(429, signInTooEarly(attempt.retryAfter), {
        'Retry-After': String(attempt.retryAfter),
      });
    }
    let answer: Awaited<ReturnType<typeof login>>;
    try {
      answer = await login(app, body);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 401) {
        await attempt.giveBack();
        throw err;
      }
      const perIp = await rateLimits.take('login', ctx.ip, rules.login);
      if (!perIp.allowed) throw rateLimits.refusal(perIp, TOO_MANY_FAILED_SIGN_INS_FROM_ADDRESS);
      throw err;
    }
    await attempt.succeeded();
    await rememberDevice(app, ctx, token, account);
    // The browser's session: HttpOnly cookies (modules/sessions); the answer stays `{ user, token }`.
    return withDeviceSession(app, ctx, answer);
  });

  /**
   * A verification link proves the mailbox, not the registration password: it verifies at once
   * only in the browser that registered (its sign-up cookie); elsewhere it answers
   * `passwordRequired` and stays valid until its holder chooses the password with a POST, which
   * verifies without signing in: the link may be open on any device (a forwarded mail, a shared
   * computer), and its holder signs in with the password just chosen (the spec's way to sign-in).
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
    // The browser that typed the password opened the mailed link: it is signed in at once (its
    // session cookies, as at sign-in), and the answer names the member for the client's session.
    const answer = await signInVerifiedAccount(app, opened.verified);
    if (!answer) return { message: EMAIL_VERIFIED };
    const { user, firstSignIn } = await withDeviceSession(app, ctx, answer);
    return { message: EMAIL_VERIFIED, user, ...(firstSignIn ? { firstSignIn } : {}) };
  });
  bindCall(router, calls.verifyEmailWithPassword, verification, async (_ctx, { params, body }) => {
    await takeTokenAttempt(params.token);
    if (!(await verifyWithPassword(app, params.token, body.password))) throw invalidLink();
    return { message: EMAIL_VERIFIED };
  });

  // What the registration form tells before a submit (issue 41): the accepted domains and rules.
  bindCall(router, calls.registrationRules, {}, async () => ({
    institutionDomains: [...app.config.institutionDomains],
    passwordMinLength: PASSWORD_MIN_LENGTH,
  }));

  // Who the caller is and what they may do: clients start their session with it.
  const member = { before: [app.requireAuth], cacheControl: 'no-store' };
  bindCall(router, calls.me, member, (ctx) => me(app, currentUser(ctx.state)));

  return router;
}
