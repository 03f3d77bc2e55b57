/**
 * Invitations of approved applicants: two random links per invitation (only their hashes kept),
 * single use. The mailed link proves the address it was mailed to; the administrator's link, for
 * hand delivery, proves no address (issue 35).
 */
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

function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The invitation whose mailed or hand-delivery link carries the token hashed `hash`. */
function byEitherLink(hash: string) {
  return { $or: [{ tokenHash: hash }, { handTokenHash: hash }] };
}

/**
 * A new invitation for an approved application: answers the token of the link to mail to
 * `email` (`mailToken`, only for that mail) and the token of the link for the administrator
 * (`handToken`). Only their hashes are kept.
 */
export async function createInvitation(
  ctx: AppContext,
  input: {
    applicationId: number;
    name: string;
    email: string | null;
    now?: Date;
  },
): Promise<{ id: number; mailToken: string; handToken: string; expiresAt: Date }> {
  const mailToken = newToken();
  const handToken = newToken();
  const expiresAt = new Date((input.now ?? new Date()).getTime() + INVITATION_TTL_DAYS * DAY_MS);
  const id = await ctx.ids.nextId('invitations');
  await invitationsOf(ctx).create({
    _id: id,
    tokenHash: hashToken(mailToken),
    handTokenHash: hashToken(handToken),
    applicationId: input.applicationId,
    name: input.name,
    email: input.email,
    expiresAt,
  });
  return { id, mailToken, handToken, expiresAt };
}

/**
 * Records that the mailed link went to the invitation's address: only then does registering that
 * address with it count as verified.
 */
export async function recordEmailed(ctx: AppContext, id: number, at: Date): Promise<void> {
  await invitationsOf(ctx).updateOne({ _id: id }, { $set: { emailedAt: at } });
}

/** The invitation of a token that still works; 404 unknown, 410 used or expired. */
export async function findUsable(
  ctx: AppContext,
  token: string,
  now = new Date(),
): Promise<InvitationDoc> {
  const invitation = TOKEN_PATTERN.test(token)
    ? await invitationsOf(ctx)
        .findOne(byEitherLink(hashToken(token)))
        .lean<InvitationDoc>()
    : null;
  if (!invitation) throw notFound(INVITATION_NOT_FOUND);
  if (invitation.usedAt) throw new HttpError(410, INVITATION_USED);
  if (invitation.expiresAt.getTime() <= now.getTime()) throw new HttpError(410, INVITATION_EXPIRED);
  return invitation;
}

/**
 * `GET /api/invitations/:token`: who was invited. The address only with the mailed link (whoever
 * holds the administrator's link may be someone else than its owner).
 */
export async function describeInvitation(
  ctx: AppContext,
  token: string,
): Promise<InvitationResponse> {
  const invitation = await findUsable(ctx, token);
  const mailed = invitation.tokenHash === hashToken(token);
  return {
    name: invitation.name,
    ...(mailed && invitation.email ? { email: invitation.email } : {}),
  };
}

/** A claimed invitation, and the address its link proves the registrant reads (or null). */
export interface ClaimedInvitation {
  id: number;
  provenEmail: string | null;
}

/**
 * Uses the invitation up: one conditional update, so of concurrent registrations with one
 * invitation (through either link) exactly one gets it (the others: 410). Run it in the
 * transaction that creates the account, so an account that cannot be created leaves the
 * invitation unused. `provenEmail` is the invitation's address when the token is the mailed
 * link's and the mail went out: holding that link proves the mailbox.
 */
export async function claimInvitation(
  ctx: AppContext,
  token: string,
  now = new Date(),
): Promise<ClaimedInvitation> {
  const hash = hashToken(token);
  const claimed = TOKEN_PATTERN.test(token)
    ? await invitationsOf(ctx)
        .findOneAndUpdate(
          { ...byEitherLink(hash), usedAt: null, expiresAt: trusted({ $gt: now }) },
          { $set: { usedAt: now } },
          { returnDocument: 'after' },
        )
        .lean<InvitationDoc>()
    : null;
  if (claimed) {
    const proves = claimed.tokenHash === hash && Boolean(claimed.emailedAt);
    return { id: claimed._id, provenEmail: proves ? claimed.email : null };
  }
  await findUsable(ctx, token, now); // throws the precise 404 or 410
  throw new HttpError(410, INVITATION_USED); // used in between
}

/** Records which account the invitation made (in the registration's transaction). */
export async function recordUse(ctx: AppContext, id: number, userId: number): Promise<void> {
  await invitationsOf(ctx).updateOne({ _id: id }, { $set: { usedBy: userId } });
  ctx.publish({ type: 'invitation.used', invitationId: id, userId });
}
