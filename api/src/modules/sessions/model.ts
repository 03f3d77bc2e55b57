import { Schema, type Connection, type Model } from 'mongoose';

/** Why a session ended (the 401 its device then gets says it: browser-sessions.ts). */
export type SessionEndReason = 'signed-out' | 'reused' | 'revoked' | 'key-retired';

/** A refresh token rotated out: presenting it again is a reuse (unless within the grace period). */
export interface RotatedToken {
  hash: string;
  rotatedAt: Date;
}

/**
 * One signed-in device (a browser's cookie session, or a client that signed in for a bearer
 * token): a family of refresh tokens, of which only the newest works. Only SHA-256 hashes of the
 * refresh tokens are stored.
 */
export interface BrowserSessionDoc {
  /** Random, URL-safe: the `sid` of the session's access tokens and its id in the Sessions list. */
  _id: string;
  userId: number;
  /** From the User-Agent at sign-in ('Firefox on Windows'). */
  device: string;
  /** SHA-256 (base64url) of the current refresh token's secret. */
  refreshHash: string;
  /** The last few rotated-out hashes (newest last), for reuse detection. */
  rotated: RotatedToken[];
  /** The signing key (`kid`) of its latest access token: a session under a retired key ends. */
  keyId: string;
  createdAt: Date;
  lastSeenAt: Date;
  /** Past this, unused, the session is over; the TTL index removes it. */
  expiresAt: Date;
  endedAt: Date | null;
  endReason: SessionEndReason | null;
}

const sessionSchema = new Schema<BrowserSessionDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: Number, required: true, index: true },
    device: { type: String, required: true },
    refreshHash: { type: String, required: true },
    rotated: {
      type: [{ _id: false, hash: { type: String, required: true }, rotatedAt: Date }],
      default: [],
    },
    keyId: { type: String, required: true },
    createdAt: { type: Date, required: true },
    lastSeenAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true, index: { expireAfterSeconds: 0 } },
    endedAt: { type: Date, default: null },
    endReason: { type: String, default: null },
  },
  { versionKey: false },
);

export type BrowserSessionModel = Model<BrowserSessionDoc>;

/** The BrowserSession model on `connection` (each app binds its own: see src/models.ts). */
export function browserSessionModel(connection: Connection): BrowserSessionModel {
  return connection.model<BrowserSessionDoc>('BrowserSession', sessionSchema, 'sessions');
}

/** This module's model from the app context: only the sessions module reads it (lint). */
export const sessionsOf = (ctx: {
  models: { BrowserSession: BrowserSessionModel };
}): BrowserSessionModel => ctx.models.BrowserSession;
