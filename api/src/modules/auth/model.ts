import { Schema, type Connection, type Model } from 'mongoose';

/**
 * The failed sign-ins of one account (its e-mail address, known or not), or of one account on
 * one known device, and when the next attempt may be evaluated (modules/auth/sign-in-delays.ts).
 * `_id` is `<SHA-256 of the address>` or `<that>:<SHA-256 of the device's record>`: no address is
 * stored. `version` moves on every change, so two processes never both take one free attempt.
 */
export interface SignInDelayDoc {
  _id: string;
  failures: number;
  nextAttemptAt: Date;
  version: number;
  /** The failures are forgotten then (TTL index). */
  expiresAt: Date;
}

/**
 * A device that signed in to an account: `_id` is the SHA-256 of the device cookie's random
 * value and the account's address, so the cookie means nothing for any other account.
 */
export interface KnownDeviceDoc {
  _id: string;
  lastSignInAt: Date;
  expiresAt: Date;
}

const signInDelaySchema = new Schema<SignInDelayDoc>(
  {
    _id: { type: String, required: true },
    failures: { type: Number, required: true },
    nextAttemptAt: { type: Date, required: true },
    version: { type: Number, required: true },
    expiresAt: { type: Date, required: true, index: { expireAfterSeconds: 0 } },
  },
  { versionKey: false },
);

const knownDeviceSchema = new Schema<KnownDeviceDoc>(
  {
    _id: { type: String, required: true },
    lastSignInAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true, index: { expireAfterSeconds: 0 } },
  },
  { versionKey: false },
);

export type SignInDelayModel = Model<SignInDelayDoc>;
export type KnownDeviceModel = Model<KnownDeviceDoc>;

export function signInDelayModel(connection: Connection): SignInDelayModel {
  return connection.model<SignInDelayDoc>('SignInDelay', signInDelaySchema, 'sign_in_delays');
}

export function knownDeviceModel(connection: Connection): KnownDeviceModel {
  return connection.model<KnownDeviceDoc>('KnownDevice', knownDeviceSchema, 'known_devices');
}

/** This module's models from the app context: only the auth module reads them (lint). */
export const signInDelaysOf = (ctx: { models: { SignInDelay: SignInDelayModel } }) =>
  ctx.models.SignInDelay;
export const knownDevicesOf = (ctx: { models: { KnownDevice: KnownDeviceModel } }) =>
  ctx.models.KnownDevice;
