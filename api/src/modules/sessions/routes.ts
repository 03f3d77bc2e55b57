import Router from '@koa/router';
import { calls, REFRESH_COOKIE, type LoginResponse } from '@campus/contracts';
import type { AppContext, HttpContext } from '../../context';
import { currentUser, requestToken, type AppState } from '../../platform/auth';
import { bindCall, type RouteContext } from '../../platform/calls';
import { assertFromOurPages } from '../../platform/csrf';
import { HttpError } from '../../platform/errors';
import {
  endOwnSession,
  endSession,
  listSessions,
  refreshSession,
  sessionOfRefreshToken,
  SESSION_NOT_FOUND,
  startSession,
} from './browser-sessions';
import { clearSessionCookies, setSessionCookies } from './cookies';

/**
 * After a successful sign-in (`POST /api/auth/login`) or password change: starts a session on
 * the caller's device, sets its cookies and answers a bearer token of that session (spec: the
 * answer carries `token`), so signing the session out ends the bearer token too.
 */
export async function signInDevice(
  app: AppContext,
  ctx: RouteContext,
  userId: number,
): Promise<string> {
  const issued = await startSession(app, userId, ctx.get('User-Agent'));
  setSessionCookies(ctx, app.config, issued);
  return app.tokens.sign(userId, { sessionId: issued.sessionId });
}

/** `POST /api/auth/login`'s answer with the device's session started (see signInDevice). */
export async function withDeviceSession(
  app: AppContext,
  ctx: RouteContext,
  answer: LoginResponse,
): Promise<LoginResponse> {
  return { ...answer, token: await signInDevice(app, ctx, answer.user.id) };
}

/**
 * `POST /api/auth/refresh`, `POST /api/auth/logout`, `GET /api/auth/sessions` and `DELETE
 * /api/auth/sessions/:id` (browser-sessions.ts).
 */
export function sessionRoutes(app: HttpContext) {
  const router = new Router<AppState>();
  const member = { before: [app.requireAuth], cacheControl: 'no-store' };
  const allowedOrigins = new Set(app.config.allowedOrigins);

  bindCall(router, calls.refreshSession, { cacheControl: 'no-store' }, async (ctx) => {
    // The refresh cookie authenticates this write: it must come from our pages (CSRF).
    assertFromOurPages(ctx, allowedOrigins);
    try {
      setSessionCookies(
        ctx,
        app.config,
        await refreshSession(app, ctx.cookies.get(REFRESH_COOKIE)),
      );
    } catch (err) {
      // A refresh token that opens nothing is dropped, so the browser stops sending it.
      if (err instanceof HttpError && err.status === 401) clearSessionCookies(ctx, app.config);
      throw err;
    }
  });

  // Ends the session the request belongs to (its access token's, else its refresh cookie's) and
  // drops the cookies; answers 204 even when there was none, so signing out always succeeds.
  bindCall(router, calls.signOut, {}, async (ctx) => {
    let sessionId: string | undefined;
    let userId: number | undefined;
    const found = requestToken(ctx);
    // Signed out by its cookies (not a bearer token): from our pages only (CSRF).
    const byCookie = found ? found.via === 'cookie' : ctx.cookies.get(REFRESH_COOKIE) !== undefined;
    if (byCookie) assertFromOurPages(ctx, allowedOrigins);
    if (found) {
      try {
        ({ sessionId, userId } = app.tokens.verifyClaims(found.token));
      } catch {
        // an expired access token: the refresh cookie still names the session
      }
    }
    if (sessionId && userId !== undefined) {
      await endSession(app, { _id: sessionId, userId }, 'signed-out');
    } else if (found?.via !== 'bearer') {
      const session = await sessionOfRefreshToken(app, ctx.cookies.get(REFRESH_COOKIE));
      if (session) await endSession(app, session, 'signed-out');
    }
    clearSessionCookies(ctx, app.config);
  });

  bindCall(router, calls.sessions, member, (ctx) => {
    const user = currentUser(ctx.state);
    return listSessions(
      app,
      user.id,
      user.sessionsValidAfter ?? 0,
      ctx.state.credentials?.claims.sessionId,
    );
  });

  bindCall(
    router,
    calls.endSession,
    { before: [app.requireAuth], notFound: SESSION_NOT_FOUND },
    async (ctx, { params }) => {
      await endOwnSession(app, currentUser(ctx.state).id, params.id);
      if (params.id === ctx.state.credentials?.claims.sessionId) {
        clearSessionCookies(ctx, app.config);
      }
    },
  );

  return router;
}
