/** Invitations of approved applicants: a random token (only its hash kept), single use. */
import { createHash, randomBytes } from 'node:crypto';
import { trusted } from 'mongoose';
import { INVITATION_TTL_DAYS, type InvitationResponse } from '@campus/contracts';
import type { AppContext } from '../../context';
import { HttpError, notFound } from '../../platform/errors';
import { invitationsOf, type InvitationDoc } from './model';

export const INVITATION_NOT_FOUND = 'This invitation link is invalid.';
export const INVITATION_USED = 'This invitation link has already been used.';
export const INVITATION_EXPIRED = 'This invitation link has expired.';

const DAY_MS = 24 * 60 * 60_000;
/** Tokens are 32 random bytes in base64url (43 characters). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new invitation for an approved application: answers the token (only its hash is kept). */
export async function createInvitation(
  ctx: AppContext,
  input: {
    applicationId: number;
    name: string;
    email: string | null;
    now?: Date;
  },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date((input.now ?? new Date()).getTime() + INVITATION_TTL_DAYS * DAY_MS);
  await invitationsOf(ctx).create({
    _id: await ctx.ids.nextId('invitations'),
    tokenHash: hashToken(token),
    applicationId: input.applicationId,
    name: input.name,
    email: input.email,
    expiresAt,
  });
  return { token, expiresAt };
}

/** The invitation of a token that still works; 404 unknown, 410 used or expired. */
export async function findUsable(
  ctx: AppContext,
  token: string,
  now = new Date(),
): Promise<InvitationDoc> {
  const invitation = TOKEN_PATTERN.test(token)
    ? await invitationsOf(ctx)
        .findOne({ tokenHash: hashToken(token) })
        .lean<InvitationDoc>()
    : null;
  if (!invitation) throw notFound(INVITATION_NOT_FOUND);
  if (invitation.usedAt) throw new HttpError(410, INVITATION_USED);
  if (invitation.expiresAt.getTime() <= now.getTime()) throw new HttpError(410, INVITATION_EXPIRED);
  return invitation;
}

/** `GET /api/invitations/:token`: who was invited. */
export async function describeInvitation(
  ctx: AppContext,
  token: string,
): Promise<InvitationResponse> {
  const invitation = await findUsable(ctx, token);
  return {
    name: invitation.name,
    ...(invitation.email ? { email: invitation.email } : {}),
  };
}

/**
 * Uses the invitation up: one conditional update, so of concurrent registrations with one token
 * exactly one gets it (the others: 410). Run it in the transaction that creates the account, so
 * an account that cannot be created leaves the invitation unused.
 */
export async function claimInvitation(
  ctx: AppContext,
  token: string,
  now = new Date(),
): Promise<InvitationDoc> {
  const claimed = TOKEN_PATTERN.test(token)
    ? await invitationsOf(ctx)
        .findOneAndUpdate(
          { tokenHash: hashToken(token), usedAt: null, expiresAt: trusted({ $gt: now }) },
          { $set: { usedAt: now } },
          { returnDocument: 'after' },
        )
        .lean<InvitationDoc>()
    : null;
  if (claimed) return claimed;
  await findUsable(ctx, token, now); // throws the precise 404 or 410
  throw new HttpError(410, INVITATION_USED); // used in between
}

/** Records which account the invitation made (in the registration's transaction). */
export async function recordUse(ctx: AppContext, id: number, userId: number): Promise<void> {
  await invitationsOf(ctx).updateOne({ _id: id }, { $set: { usedBy: userId } });
  ctx.publish({ type: 'invitation.used', invitationId: id, userId });
}

/** Makes a claimed invitation usable again (its account could not be completed). */
export async function releaseInvitation(ctx: AppContext, id: number): Promise<void> {
  await invitationsOf(ctx).updateOne({ _id: id }, { $set: { usedAt: null, usedBy: null } });
}
