import { createHash, randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';
import { isInstitutionalEmail, type PublicUser, type RegisterRequest } from '@campus/contracts';
import type { AppContext } from '../../context';
import { conflict, HttpError } from '../../platform/errors';
import { isDuplicateKey } from '../../platform/mongo-errors';
import { claimInvitation, recordUse } from '../invitations/invitations';
import { createSignUp, emailTaken, replacePendingSignUp } from '../users/accounts';
import { createInvitedAccount } from '../users/admin-accounts';
import { userPolicy } from '../users/policy';
import { toPublicUser } from '../users/presenters';
import { verificationEmail } from './emails';

export const EMAIL_TAKEN = 'An account with this email already exists';
export const INVITED_ACCOUNT_READY = 'Account created successfully! You can now sign in.';

function institutionalOnlyMessage(domains: readonly string[]): string {
  return `Only institutional email addresses are accepted (${domains.map((d) => `@${d}`).join(', ')}).`;
}

export function hashVerificationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Registration with an invitation: any e-mail domain, the account marked `affiliation:
 * 'alumni'`, verified at once when the address is the one the invitation was mailed to (else a
 * verification link as usual). The invitation is used up in the transaction that creates the
 * account, so of concurrent registrations with one token exactly one succeeds (the others 410).
 */
export async function registerInvited(
  ctx: AppContext,
  input: RegisterRequest & { invitationToken: string },
): Promise<{ user: PublicUser; verified: boolean }> {
  if (await emailTaken(ctx, input.email)) throw conflict(EMAIL_TAKEN);
  const password = await bcrypt.hash(input.password, ctx.config.bcryptRounds);
  const token = randomBytes(32).toString('base64url');
  let created: {
    user: Awaited<ReturnType<typeof createInvitedAccount>>;
    invitationId: number;
    verified: boolean;
  };
  try {
    created = await ctx.transaction(async () => {
      const invitation = await claimInvitation(ctx, input.invitationToken);
      const verified = invitation.email !== null && invitation.email === input.email;
      const user = await createInvitedAccount(ctx, {
        id: () => ctx.ids.nextIdExcept('users', userPolicy.administratorId(ctx)),
        name: input.name,
        email: input.email,
        password,
        verified,
        verificationToken: hashVerificationToken(token),
      });
      await recordUse(ctx, invitation._id, user._id);
      return { user, invitationId: invitation._id, verified };
    });
  } catch (err) {
    if (isDuplicateKey(err)) throw conflict(EMAIL_TAKEN); // verified meanwhile
    throw err;
  }
  const { user, verified } = created;
  if (!verified) {
    // Queued: the mail queue sends it, trying again while SMTP is down.
    await ctx.mailer.send(
      verificationEmail(user.name, user.email, `${ctx.config.webUrl}/verify/${token}`),
    );
  }
  return { user: toPublicUser(user, ctx.config.publicUrl), verified };
}

export async function register(ctx: AppContext, input: RegisterRequest): Promise<PublicUser> {
  if (!isInstitutionalEmail(input.email, ctx.config.institutionDomains)) {
    throw new HttpError(400, institutionalOnlyMessage(ctx.config.institutionDomains));
  }
  if (await emailTaken(ctx, input.email)) throw conflict(EMAIL_TAKEN);

  const token = randomBytes(32).toString('base64url');
  const pending = {
    name: input.name,
    email: input.email,
    password: await bcrypt.hash(input.password, ctx.config.bcryptRounds),
    verificationToken: hashVerificationToken(token),
  };
  // An unverified sign-up does not hold the address: registering it again replaces it (new
  // password, new link; the old link stops working), so nobody can squat a student's e-mail.
  let user = await replacePendingSignUp(ctx, pending);
  if (!user) {
    try {
      user = await createSignUp(ctx, {
        _id: await ctx.ids.nextIdExcept('users', userPolicy.administratorId(ctx)),
        ...pending,
      });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      // A sign-up for the same address landed in between: replace it, unless it is verified.
      user = await replacePendingSignUp(ctx, pending);
      if (!user) throw conflict(EMAIL_TAKEN);
    }
  }

  // Queued: the mail queue sends it, trying again while SMTP is down.
  await ctx.mailer.send(
    verificationEmail(user.name, user.email, `${ctx.config.webUrl}/verify/${token}`),
  );
  return toPublicUser(user, ctx.config.publicUrl);
}
