import { z } from 'zod';
import { isoDateSchema } from './common';

/**
 * Browser sessions (issue 35): a browser is signed in by two `HttpOnly` cookies the API sets at
 * sign-in, never by a token a script can read. `campus_access` holds a short-lived access token
 * (sent to every `/api` route); `campus_refresh` a random refresh token (sent only to
 * `/api/auth`), exchanged for new cookies by `POST /api/auth/refresh` and replaced each time (a
 * refresh token used twice ends its session). `Authorization: Bearer` stays accepted for tools,
 * tests and other clients (spec §7).
 */
export const ACCESS_COOKIE = 'campus_access';
export const REFRESH_COOKIE = 'campus_refresh';

/**
 * The header a browser's cookie-authenticated write must carry (with an allowed `Origin`): a page
 * on another site cannot send it without the API's CORS consent, so a forged form or fetch from
 * there is refused (403, CSRF_REFUSED_MESSAGE). The kit's api client always sends it.
 */
export const CSRF_HEADER = 'X-Requested-With';
export const CSRF_HEADER_VALUE = 'campus';

export const CSRF_REFUSED_MESSAGE =
  'Request refused: a signed-in browser request that changes something must come from the Campus app (allowed Origin and the X-Requested-With: campus header).';

/** The 401 of a session ended because its signing key was retired (docs/deploy.md, rotation). */
export const SESSION_KEY_RETIRED_MESSAGE =
  'Your session has ended because Campus renewed its security keys. Please sign in again.';

/**
 * The 401 of a refresh token presented a second time: the session it belongs to is ended on every
 * device (a copy of it may be in someone else's hands).
 */
export const SESSION_REUSED_MESSAGE =
  'Your session has ended because its sign-in was used twice, which can mean someone copied it. Please sign in again.';

/** The 401 of a session the member signed out of, here or from another device's Sessions list. */
export const SESSION_SIGNED_OUT_MESSAGE =
  'This session was signed out, from this device or from your Sessions list. Please sign in again.';

/** The 401 of a session unused for longer than the API keeps one. */
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.';

/** A session's id (`/api/auth/sessions/:id`): random, URL-safe. */
export const sessionIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'Invalid session id');

/** The path parameters of `DELETE /api/auth/sessions/:id`. */
export const sessionIdPathParamsSchema = z.strictObject({ id: sessionIdSchema });

/** One signed-in device of the member (`GET /api/auth/sessions`). */
export const sessionSchema = z.object({
  id: sessionIdSchema,
  /** From the device's User-Agent when it signed in: 'Firefox on Windows', 'curl'. */
  device: z.string(),
  createdAt: isoDateSchema,
  /** When the device last renewed its access (every few minutes while it is in use). */
  lastSeenAt: isoDateSchema,
  /** The session of the request that asked. */
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionSchema>;

/** `GET /api/auth/sessions`: the member's open sessions, most recently seen first. */
export const sessionListSchema = z.array(sessionSchema);
export type SessionList = z.infer<typeof sessionListSchema>;
