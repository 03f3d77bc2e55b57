import Router from '@koa/router';
import type { Middleware } from 'koa';
import { loginRequestSchema, registerRequestSchema } from '@campus/contracts';
import { currentUser, type AppState } from '../../platform/auth';
import type { RateLimitRule } from '../../platform/config';
import { rateLimit } from '../../platform/rate-limit';
import { parseInput } from '../../platform/validation';
import {
  EMAIL_VERIFIED,
  INVALID_VERIFICATION_LINK,
  type AuthOptions,
  type AuthService,
} from './service';

export function authRoutes(
  auth: AuthService,
  requireAuth: Middleware<AppState>,
  deps: AuthOptions & {
    rateLimits: { login: RateLimitRule; register: RateLimitRule; verify: RateLimitRule };
  },
) {
  const { login, me, register, verifyEmail } = auth;
  const router = new Router<AppState>({ prefix: '/api/auth' });

  router.post('/register', rateLimit(deps.rateLimits.register), async (ctx) => {
    const user = await register(parseInput(registerRequestSchema, ctx.request.body), deps);
    ctx.status = 201;
    ctx.body = {
      message:
        'Account created successfully! Check your inbox and click the verification link to activate your account.',
      user,
    };
  });

  router.post('/login', rateLimit(deps.rateLimits.login), async (ctx) => {
    ctx.body = await login(parseInput(loginRequestSchema, ctx.request.body), deps);
  });

  router.get('/verify/:token', rateLimit(deps.rateLimits.verify), async (ctx) => {
    if (await verifyEmail(ctx.params.token ?? '')) {
      ctx.body = { message: EMAIL_VERIFIED };
    } else {
      ctx.status = 400;
      ctx.body = { error: INVALID_VERIFICATION_LINK, message: INVALID_VERIFICATION_LINK };
    }
  });

  // Who the caller is and what they may do: clients start their session with it.
  router.get('/me', requireAuth, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await me(currentUser(ctx.state), deps.publicUrl);
  });

  return router;
}
