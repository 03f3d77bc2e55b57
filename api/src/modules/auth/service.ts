import { createHash, randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';
import {
  ACCOUNT_SUSPENDED_MESSAGE,
  isInstitutionalEmail,
  type AuthMeResponse,
  type LoginRequest,
  type LoginResponse,
  type PublicUser,
  type RegisterRequest,
} from '@campus/contracts';
import type { AuthUser, TokenService } from '../../platform/auth';
import { conflict, forbidden, HttpError, unauthorized } from '../../platform/errors';
import type { Mailer } from '../../platform/mailer';
import type { CounterService } from '../counters/service';
import { toPublicUser } from '../users/presenters';
import type { UserService } from '../users/service';
import { verificationEmail } from './emails';
import { isDuplicateKey } from '../../platform/mongo-errors';
import type { Transaction } from '../../platform/transactions';
import type { InvitationService } from '../invitations/service';
import type { AdminAccounts } from '../users/admin-accounts';

export const INVALID_CREDENTIALS = 'Invalid email or password';
export const EMAIL_NOT_VERIFIED =
  'Please verify your email before logging in. Check your inbox for the verification link.';
export const EMAIL_TAKEN = 'An account with this email already exists';
export const INVALID_VERIFICATION_LINK =
  'This verification link is invalid or has already been used.';
export const EMAIL_VERIFIED = 'Email verified successfully! You can now log in.';

export interface AuthOptions {
  institutionDomains: string[];
  /** Reserved for the provisioned administrator: no registration receives it. */
  adminUserId: number;
  bcryptRounds: number;
  webUrl: string;
  publicUrl: string;
  mailer: Mailer;
  tokens: TokenService;
}

export interface AuthServiceDeps {
  counters: CounterService;
  users: UserService;
  /** Registration with an invitation (an approved account application). */
  invitations: InvitationService;
  adminAccounts: Pick<AdminAccounts, 'createInvitedAccount' | 'removeInvitedAccount'>;
  transaction: Transaction;
}

export const INVITED_ACCOUNT_READY = 'Account created successfully! You can now sign in.';

export function createAuthService({
  counters,
  users,
  invitations,
  adminAccounts,
  transaction,
}: AuthServiceDeps) {
  const { nextIdExcept } = counters;
  const { accounts, findPublicUser } = users;

  function institutionalOnlyMessage(domains: readonly string[]): string {
    return `Only institutional email addresses are accepted (${domains.map((d) => `@${d}`).join(', ')}).`;
  }

  function hashVerificationToken(token: string): string {
    return createHash('sha256').update(token).digest('hex');
  }

  /**
   * Registration with an invitation: any e-mail domain, the account marked `affiliation:
   * 'alumni'`, verified at once when the address is the one the invitation was mailed to (else a
   * verification link as usual). The invitation is used up in the transaction that creates the
   * account, so of concurrent registrations with one token exactly one succeeds (the others 410).
   */
  async function registerInvited(
    input: RegisterRequest & { invitationToken: string },
    deps: AuthOptions,
  ): Promise<{ user: PublicUser; verified: boolean }> {
    if (await accounts.emailTaken(input.email)) throw conflict(EMAIL_TAKEN);
    const password = await bcrypt.hash(input.password, deps.bcryptRounds);
    const token = randomBytes(32).toString('base64url');
    let created: {
      user: Awaited<ReturnType<AdminAccounts['createInvitedAccount']>>;
      invitationId: number;
      verified: boolean;
    };
    try {
      created = await transaction(async () => {
        const invitation = await invitations.claimInvitation(input.invitationToken);
        const verified = invitation.email !== null && invitation.email === input.email;
        const user = await adminAccounts.createInvitedAccount({
          id: () => nextIdExcept('users', deps.adminUserId),
          name: input.name,
          email: input.email,
          password,
          verified,
          verificationToken: hashVerificationToken(token),
        });
        await invitations.recordUse(invitation._id, user._id);
        return { user, invitationId: invitation._id, verified };
      });
    } catch (err) {
      if (isDuplicateKey(err)) throw conflict(EMAIL_TAKEN); // verified meanwhile
      throw err;
    }
    const { user, verified } = created;
    if (!verified) {
      try {
        await deps.mailer.send(
          verificationEmail(user.name, user.email, `${deps.webUrl}/verify/${token}`),
        );
      } catch (err) {
        // Without the e-mail the account could never be verified: undo it, invitation included.
        await adminAccounts.removeInvitedAccount(user._id);
        await invitations.releaseInvitation(created.invitationId);
        throw new HttpError(
          503,
          'We could not send the verification email. Please try again later.',
          {},
          err,
        );
      }
    }
    return { user: toPublicUser(user, deps.publicUrl), verified };
  }

  async function register(input: RegisterRequest, deps: AuthOptions): Promise<PublicUser> {
    if (!isInstitutionalEmail(input.email, deps.institutionDomains)) {
      throw new HttpError(400, institutionalOnlyMessage(deps.institutionDomains));
    }
    if (await accounts.emailTaken(input.email)) throw conflict(EMAIL_TAKEN);

    const token = randomBytes(32).toString('base64url');
    const pending = {
      name: input.name,
      email: input.email,
      password: await bcrypt.hash(input.password, deps.bcryptRounds),
      verificationToken: hashVerificationToken(token),
    };
    // An unverified sign-up does not hold the address: registering it again replaces it (new
    // password, new link; the old link stops working), so nobody can squat a student's e-mail.
    let user = await accounts.replacePending(pending);
    const created = user === null;
    if (!user) {
      try {
        user = await accounts.create({
          _id: await nextIdExcept('users', deps.adminUserId),
          ...pending,
        });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        // A sign-up for the same address landed in between: replace it, unless it is verified.
        user = await accounts.replacePending(pending);
        if (!user) throw conflict(EMAIL_TAKEN);
      }
    }

    try {
      await deps.mailer.send(
        verificationEmail(user.name, user.email, `${deps.webUrl}/verify/${token}`),
      );
    } catch (err) {
      // Without the e-mail the account could never be verified: undo it so the address stays free.
      if (created) await accounts.remove(user._id);
      throw new HttpError(
        503,
        'We could not send the verification email. Please try again later.',
        {},
        err,
      );
    }
    return toPublicUser(user, deps.publicUrl);
  }

  /** Consumes a verification token: it works once. */
  async function verifyEmail(token: string): Promise<boolean> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return false;
    return accounts.verifyByToken(hashVerificationToken(token));
  }

  // Compared against when the e-mail is unknown, so both failures take the same time: the dummy
  // hash has the same cost as real ones.
  const dummyHashes = new Map<number, Promise<string>>();
  function dummyHash(rounds: number): Promise<string> {
    let hash = dummyHashes.get(rounds);
    if (!hash) {
      hash = bcrypt.hash(randomBytes(16).toString('hex'), rounds);
      dummyHashes.set(rounds, hash);
    }
    return hash;
  }

  async function login(input: LoginRequest, deps: AuthOptions): Promise<LoginResponse> {
    const user = await accounts.findByEmail(input.email);
    const passwordMatches = await bcrypt.compare(
      input.password,
      user?.password ?? (await dummyHash(deps.bcryptRounds)),
    );
    if (!user || !passwordMatches) throw unauthorized(INVALID_CREDENTIALS);
    if (!user.isVerified) throw forbidden(EMAIL_NOT_VERIFIED);
    if (user.suspendedAt) throw forbidden(ACCOUNT_SUSPENDED_MESSAGE);
    return { user: toPublicUser(user, deps.publicUrl), token: deps.tokens.sign(user._id) };
  }

  /** `GET /api/auth/me`: the caller's public fields and the roles decided when they were authenticated. */
  async function me(caller: AuthUser, publicUrl: string): Promise<AuthMeResponse> {
    return {
      user: toPublicUser(await findPublicUser(caller.id), publicUrl),
      roles: [...caller.roles],
    };
  }

  return { register, registerInvited, verifyEmail, login, me };
}

export type AuthService = ReturnType<typeof createAuthService>;
