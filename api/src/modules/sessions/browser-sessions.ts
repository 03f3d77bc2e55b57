/**
 * Browser sessions (issue 35): sign-in starts a session, a family of refresh tokens of which only
 * the newest works; each refresh answers a short-lived access token and the next refresh token.
 * A refresh token presented again after it was replaced ends the whole session (someone else
 * holds a copy), except within REFRESH_GRACE_MS of its replacement, when two tabs of one browser
 * refreshed at the same moment. Every ended session says why (its 401's message).
 */
import { createHash, randomBytes } from 'node:crypto';
import { trusted } from 'mongoose';
import {
  ACCOUNT_SUSPENDED_MESSAGE,
  SESSION_EXPIRED_MESSAGE,
  SESSION_KEY_RETIRED_MESSAGE,
  SESSION_REUSED_MESSAGE,
  SESSION_REVOKED_MESSAGE,
  SESSION_SIGNED_OUT_MESSAGE,
  type SessionList,
} from '@campus/contracts';
import type { AppContext } from '../../context';
import { notFound, unauthorized } from '../../platform/errors';
import { authenticateUser } from '../users/authenticate';
import { deviceLabel } from './device';
import { sessionsOf, type BrowserSessionDoc, type SessionEndReason } from './model';
import type { SessionCache } from './session-cache';

/** Two refreshes with one token this close together are one browser's tabs racing, not a theft. */
export const REFRESH_GRACE_MS = 10_000;
/** Rotated-out refresh tokens remembered per session, for reuse detection. */
const ROTATED_KEPT = 20;
const DAY_MS = 24 * 60 * 60_000;

export const SESSION_NOT_FOUND = 'Session not found';

/** What a sign-in or a refresh hands the client: the cookies' values. */
export interface IssuedSession {
  sessionId: string;
  accessToken: string;
  /** Epoch ms when the access token expires. */
  accessExpiresAt: number;
  /** Absent when the refresh token stays as it is (a refresh within the grace period). */
  refreshToken?: string;
}

const REFRESH_TOKEN = /^([A-Za-z0-9_-]{16,64})\.([A-Za-z0-9_-]{43})$/;

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('base64url');

/** The message a device of an ended session is told. */
export function endMessage(reason: SessionEndReason | null): string {
  switch (reason) {
    case 'reused':
      return SESSION_REUSED_MESSAGE;
    case 'revoked':
      return SESSION_REVOKED_MESSAGE;
    case 'key-retired':
      return SESSION_KEY_RETIRED_MESSAGE;
    default:
      return SESSION_SIGNED_OUT_MESSAGE;
  }
}

function accessFor(ctx: AppContext, userId: number, sessionId: string) {
  const accessToken = ctx.tokens.sign(userId, {
    sessionId,
    expiresIn: ctx.config.accessTokenExpiresIn,
  });
  const { expiresAt } = ctx.tokens.verifyClaims(accessToken);
  return { accessToken, accessExpiresAt: expiresAt ?? Date.now() };
}

function newSecret() {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: hashOf(secret) };
}

/** Starts a session of `userId` on the device whose User-Agent is `userAgent`. */
export async function startSession(
  ctx: AppContext,
  userId: number,
  userAgent: string | undefined,
): Promise<IssuedSession> {
  const now = ctx.clock.now();
  const sessionId = randomBytes(18).toString('base64url');
  const { secret, hash } = newSecret();
  await ctx.transaction(async () => {
    await sessionsOf(ctx).create([
      {
        _id: sessionId,
        userId,
        device: deviceLabel(userAgent),
        refreshHash: hash,
        rotated: [],
        keyId: ctx.tokens.signingKeyId,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + ctx.config.sessionIdleDays * DAY_MS),
        endedAt: null,
        endReason: null,
      },
    ]);
    ctx.publish({ type: 'session.started', userId, sessionId });
  });
  return {
    sessionId,
    ...accessFor(ctx, userId, sessionId),
    refreshToken: `${sessionId}.${secret}`,
  };
}

/** Ends one session (no-op when it already ended); true when this call ended it. */
export async function endSession(
  ctx: AppContext,
  session: Pick<BrowserSessionDoc, '_id' | 'userId'>,
  reason: SessionEndReason,
): Promise<boolean> {
  return ctx.transaction(async () => {
    const { modifiedCount } = await sessionsOf(ctx).updateOne(
      { _id: session._id, userId: session.userId, endedAt: null },
      { $set: { endedAt: ctx.clock.now(), endReason: reason } },
    );
    if (modifiedCount === 0) return false;
    ctx.publish({ type: 'session.ended', userId: session.userId, sessionId: session._id });
    return true;
  });
}

/**
 * Exchanges a refresh token for a new access token and the next refresh token. Refuses (401 with
 * the reason) a session that ended, expired, belongs to a suspended or revoked account, or was
 * started under a signing key that has since been retired; a replaced refresh token presented
 * again ends its session.
 */
export async function refreshSession(
  ctx: AppContext,
  refreshToken: string | undefined,
): Promise<IssuedSession> {
  const parts = REFRESH_TOKEN.exec(refreshToken ?? '');
  if (!parts) throw unauthorized();
  const [, sessionId, secret] = parts as unknown as [string, string, string];
  const Session = sessionsOf(ctx);
  const now = ctx.clock.now();
  const session = await Session.findById(sessionId).lean();
  if (!session || session.expiresAt.getTime() <= now.getTime()) {
    throw unauthorized(SESSION_EXPIRED_MESSAGE);
  }
  if (session.endedAt) throw unauthorized(endMessage(session.endReason));
  const presented = hashOf(secret);
  const isCurrent = presented === session.refreshHash;
  const rotated = session.rotated.find((r) => r.hash === presented);
  // A guess (or garbage) with a real session id ends nothing: only a token once issued counts.
  if (!isCurrent && !rotated) throw unauthorized();

  const account = await authenticateUser(ctx, session.userId);
  const refuse = async (reason: SessionEndReason, message: string) => {
    await endSession(ctx, session, reason);
    throw unauthorized(message);
  };
  if (!account) return refuse('revoked', 'Invalid or expired token');
  if (account.suspended) throw unauthorized(ACCOUNT_SUSPENDED_MESSAGE);
  if (session.createdAt.getTime() < (account.sessionsValidAfter ?? 0)) {
    return refuse('revoked', SESSION_REVOKED_MESSAGE);
  }
  if (!ctx.tokens.hasKey(session.keyId)) return refuse('key-retired', SESSION_KEY_RETIRED_MESSAGE);

  if (rotated) {
    if (now.getTime() - rotated.rotatedAt.getTime() <= REFRESH_GRACE_MS) {
      // Another tab of this browser refreshed a moment ago: its new cookie is already in the
      // browser's jar, so only a fresh access token is needed here.
      return { sessionId, ...accessFor(ctx, session.userId, sessionId) };
    }
    return refuse('reused', SESSION_REUSED_MESSAGE);
  }

  const next = newSecret();
  // Only the holder of the current token moves the session on; of two racing, one wins.
  const moved = await Session.updateOne(
    { _id: sessionId, refreshHash: presented, endedAt: null },
    {
      $set: {
        refreshHash: next.hash,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + ctx.config.sessionIdleDays * DAY_MS),
        keyId: ctx.tokens.signingKeyId,
      },
      $push: { rotated: { $each: [{ hash: presented, rotatedAt: now }], $slice: -ROTATED_KEPT } },
    },
  );
  if (moved.modifiedCount === 0) {
    // Replaced between the read and the write: the other refresh won; this one is its twin.
    return refreshSession(ctx, refreshToken);
  }
  return {
    sessionId,
    ...accessFor(ctx, session.userId, sessionId),
    refreshToken: `${sessionId}.${next.secret}`,
  };
}

/**
 * The session a refresh token belongs to, when the token is one it issued (current or rotated
 * out): sign-out with only the refresh cookie left.
 */
export async function sessionOfRefreshToken(
  ctx: AppContext,
  refreshToken: string | undefined,
): Promise<Pick<BrowserSessionDoc, '_id' | 'userId'> | undefined> {
  const parts = REFRESH_TOKEN.exec(refreshToken ?? '');
  if (!parts) return undefined;
  const presented = hashOf(parts[2]!);
  const session = await sessionsOf(ctx)
    .findOne({ _id: parts[1]!, $or: [{ refreshHash: presented }, { 'rotated.hash': presented }] })
    .select({ userId: 1 })
    .lean();
  return session ?? undefined;
}

/** Ends the caller's session `sessionId`; 404 when the member has no such session. */
export async function endOwnSession(
  ctx: AppContext,
  userId: number,
  sessionId: string,
): Promise<void> {
  const session = await sessionsOf(ctx)
    .findOne({
      _id: sessionId,
      userId,
      endedAt: null,
      expiresAt: trusted({ $gt: ctx.clock.now() }),
    })
    .select({ userId: 1 })
    .lean();
  if (!session) throw notFound(SESSION_NOT_FOUND);
  await endSession(ctx, session, 'signed-out');
}

/** The member's open sessions, most recently seen first; `current`: the caller's own. */
export async function listSessions(
  ctx: AppContext,
  userId: number,
  validAfter: number,
  currentId: string | undefined,
): Promise<SessionList> {
  const sessions = await sessionsOf(ctx)
    .find({
      userId,
      endedAt: null,
      expiresAt: trusted({ $gt: ctx.clock.now() }),
      createdAt: trusted({ $gte: new Date(validAfter) }),
    })
    .sort({ lastSeenAt: -1, _id: 1 })
    .limit(100)
    .lean();
  return sessions.map((s) => ({
    id: s._id,
    device: s.device,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    current: s._id === currentId,
  }));
}

/**
 * Why a token's session opens nothing any more (the 401's message), or undefined while it is
 * open; remembered per session (`cache`) until an event says it ended.
 */
export async function sessionEnded(
  ctx: AppContext,
  cache: SessionCache,
  sessionId: string,
  userId: number,
): Promise<string | undefined> {
  const known = cache.get(sessionId);
  if (known !== undefined) return known ?? undefined;
  const mark = cache.mark();
  const session = await sessionsOf(ctx)
    .findById(sessionId)
    .select({ userId: 1, endedAt: 1, endReason: 1, expiresAt: 1 })
    .lean();
  let ended: string | null = null;
  if (!session || session.userId !== userId) ended = SESSION_EXPIRED_MESSAGE;
  else if (session.endedAt) ended = endMessage(session.endReason);
  // An expired session is not remembered as open past its expiry: the cache lives shorter.
  else if (session.expiresAt.getTime() <= ctx.clock.now().getTime()) {
    ended = SESSION_EXPIRED_MESSAGE;
  }
  cache.set(sessionId, ended, mark);
  return ended ?? undefined;
}
