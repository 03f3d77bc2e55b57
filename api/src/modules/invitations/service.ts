import { createHash, randomBytes } from 'node:crypto';
import { trusted } from 'mongoose';
import { INVITATION_TTL_DAYS, type InvitationResponse } from '@campus/contracts';
import type { DomainEvent } from '../../domain-events';
import { HttpError, notFound } from '../../platform/errors';
import type { Transactions } from '../../platform/transactions';
import type { CounterService } from '../counters/service';
import type { InvitationDoc, InvitationModel } from './model';

export const INVITATION_NOT_FOUND = 'This invitation link is invalid.';
export const INVITATION_USED = 'This invitation link has already been used.';
export const INVITATION_EXPIRED = 'This invitation link has expired.';

const DAY_MS = 24 * 60 * 60_000;
/** Tokens are 32 random bytes in base64url (43 characters). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface InvitationServiceDeps {
  models: { Invitation: InvitationModel };
  counters: CounterService;
  writes: Pick<Transactions<DomainEvent>, 'publish'>;
}

export function createInvitationService({
  models: { Invitation },
  counters,
  writes: { publish },
}: InvitationServiceDeps) {
  /** A new invitation for an approved application: answers the token (only its hash is kept). */
  async function createInvitation(input: {
    applicationId: number;
    name: string;
    email: string | null;
    now?: Date;
  }): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date((input.now ?? new Date()).getTime() + INVITATION_TTL_DAYS * DAY_MS);
    await Invitation.create({
      _id: await counters.nextId('invitations'),
      tokenHash: hashToken(token),
      applicationId: input.applicationId,
      name: input.name,
      email: input.email,
      expiresAt,
    });
    return { token, expiresAt };
  }

  /** The invitation of a token that still works; 404 unknown, 410 used or expired. */
  async function findUsable(token: string, now = new Date()): Promise<InvitationDoc> {
    const invitation = TOKEN_PATTERN.test(token)
      ? await Invitation.findOne({ tokenHash: hashToken(token) }).lean<InvitationDoc>()
      : null;
    if (!invitation) throw notFound(INVITATION_NOT_FOUND);
    if (invitation.usedAt) throw new HttpError(410, INVITATION_USED);
    if (invitation.expiresAt.getTime() <= now.getTime())
      throw new HttpError(410, INVITATION_EXPIRED);
    return invitation;
  }

  /** `GET /api/invitations/:token`: who was invited. */
  async function describeInvitation(token: string): Promise<InvitationResponse> {
    const invitation = await findUsable(token);
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
  async function claimInvitation(token: string, now = new Date()): Promise<InvitationDoc> {
    const claimed = TOKEN_PATTERN.test(token)
      ? await Invitation.findOneAndUpdate(
          { tokenHash: hashToken(token), usedAt: null, expiresAt: trusted({ $gt: now }) },
          { $set: { usedAt: now } },
          { returnDocument: 'after' },
        ).lean<InvitationDoc>()
      : null;
    if (claimed) return claimed;
    await findUsable(token, now); // throws the precise 404 or 410
    throw new HttpError(410, INVITATION_USED); // used in between
  }

  /** Records which account the invitation made (in the registration's transaction). */
  async function recordUse(id: number, userId: number): Promise<void> {
    await Invitation.updateOne({ _id: id }, { $set: { usedBy: userId } });
    publish({ type: 'invitation.used', invitationId: id, userId });
  }

  /** Makes a claimed invitation usable again (its account could not be completed). */
  async function releaseInvitation(id: number): Promise<void> {
    await Invitation.updateOne({ _id: id }, { $set: { usedAt: null, usedBy: null } });
  }

  return { createInvitation, describeInvitation, claimInvitation, recordUse, releaseInvitation };
}

export type InvitationService = ReturnType<typeof createInvitationService>;
