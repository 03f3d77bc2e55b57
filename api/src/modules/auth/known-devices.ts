import { createHash, randomBytes } from 'node:crypto';
import { trusted } from 'mongoose';
import type { AppContext } from '../../context';
import type { RouteContext } from '../../platform/calls';
import { browserCookie } from '../../platform/cookies';
import { knownDevicesOf } from './model';

/**
 * Devices that signed in to an account before. A successful sign-in sets the device cookie (a
 * random value, `HttpOnly`, `SameSite=Lax`, `Secure` in production) and records the SHA-256 of
 * that value with the account's address: the cookie marks the device for that account only, and
 * the database holds nothing a stolen copy of it could be used as. A known device's sign-ins have
 * delays of their own (sign-in-delays.ts), so other devices' failures never slow it down.
 */

export const DEVICE_COOKIE = 'campus_device';

/** A device that has not signed in for this long is new again. */
export const KNOWN_DEVICE_TTL_MS = 365 * 24 * 60 * 60_000;

const DEVICE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** The key of an account's sign-in delays: its address (as typed, any case), known or not. */
export function accountKey(email: string): string {
  return sha256(email.trim().toLowerCase());
}

const deviceRecordId = (deviceToken: string, account: string) =>
  sha256(`${deviceToken}:${account}`);

/** The device cookie's value when it is well formed (anything else is no cookie). */
export function deviceToken(ctx: RouteContext): string | undefined {
  const value = ctx.cookies.get(DEVICE_COOKIE, { signed: false });
  return value !== undefined && DEVICE_TOKEN.test(value) ? value : undefined;
}

/** The record of this device for the account, or null for a device new to it. */
export async function knownDevice(
  ctx: AppContext,
  token: string | undefined,
  account: string,
): Promise<string | null> {
  if (token === undefined) return null;
  const id = deviceRecordId(token, account);
  const known = await knownDevicesOf(ctx).exists({
    _id: id,
    expiresAt: trusted({ $gt: ctx.clock.now() }),
  });
  return known ? id : null;
}

/** After a successful sign-in: this device is known to the account (for another year). */
export async function rememberDevice(
  ctx: AppContext,
  route: RouteContext,
  token: string | undefined,
  account: string,
): Promise<void> {
  const value = token ?? randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + KNOWN_DEVICE_TTL_MS);
  await knownDevicesOf(ctx).updateOne(
    { _id: deviceRecordId(value, account) },
    { $set: { lastSignInAt: now, expiresAt } },
    { upsert: true },
  );
  route.cookies.set(
    DEVICE_COOKIE,
    value,
    browserCookie(route, ctx.config, '/', KNOWN_DEVICE_TTL_MS),
  );
}
