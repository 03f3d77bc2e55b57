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
 * 'alumni'`. Verified at once only when the address is the one the invitation's mailed link
 * proves (that link, mailed there, was used: invitations.ts); any other address, or the link the
 * administrator handed over, gets a verification link as usual. The invitation is used up in the
 * transaction that creates the account, so of concurrent registrations with one invitation
 * exactly one succeeds (the others 410). `signUpSecretHash`: as for `register`.
 */
export async function registerInvited(
  ctx: AppContext,
  input: RegisterRequest & { invitationToken: string },
  signUpSecretHash: string,
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
      const verified = invitation.provenEmail !== null && invitation.provenEmail === input.email;
      const user = await createInvitedAccount(ctx, {
        id: () => ctx.ids.nextIdExcept('users', userPolicy.administratorId(ctx)),
        name: input.name,
        email: input.email,
        password,
        verified,
        verificationToken: hashVerificationToken(token),
        signUpSecretHash,
      });
      await recordUse(ctx, invitation.id, user._id);
      return { user, invitationId: invitation.id, verified };
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

/**
 * Registration (spec): an unverified sign-up and its verification link by mail.
 * `signUpSecretHash` is the hash of the secret the route puts in the registering browser's
 * sign-up cookie: only with it does the link keep this password (verify-email.ts).
 * `renewLink: false` (the address's verification e-mails are used up for now: auth/account-
 * emails.ts): a pending sign-up is replaced but keeps its link, which the latest e-mail holds,
 * and nothing is sent; a new sign-up still gets its first link.
 */
export async function register(
  ctx: AppContext,
  input: RegisterRequest,
  signUpSecretHash: string,
  { renewLink }: { renewLink: boolean } = { renewLink: true },
): Promise<PublicUser> {
  if (!isInstitutionalEmail(input.email, ctx.config.institutionDomains)) {
    throw new HttpError(400, institutionalOnlyMessage(ctx.config.institutionDomains));
  }
  if (await emailTaken(ctx, input.email)) throw conflict(EMAIL_TAKEN);

  const token = randomBytes(32).toString('base64url');
  const account = {
    name: input.name,
    email: input.email,
    password: await bcrypt.hash(input.password, ctx.config.bcryptRounds),
    signUpSecretHash,
  };
  const pending = { ...account, verificationToken: hashVerificationToken(token) };
  // An unverified sign-up does not hold the address: registering it again replaces it (new
  // password, new link and cookie; the old ones stop working), so nobody can squat a student's
  // e-mail. The replacing password signs in only if its own browser opens the mailed link.
  let user = await replacePendingSignUp(ctx, renewLink ? pending : account);
  const mailed = renewLink || user === null;
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
  if (!mailed) return toPublicUser(user, ctx.config.publicUrl);

  // Queued: the mail queue sends it, trying again while SMTP is down.
  await ctx.mailer.send(
    verificationEmail(user.name, user.email, `${ctx.config.webUrl}/verify/${token}`),
  );
  return toPublicUser(user, ctx.config.publicUrl);
}
