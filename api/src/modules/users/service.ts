import { trusted } from 'mongoose';
import { AVATAR_URL_MESSAGE, type ProfileUpdate, type PublicUser } from '@campus/contracts';
import type { DomainEvent } from '../../domain-events';
import type { AuthUser } from '../../platform/auth';
import { forbidden, HttpError, notFound } from '../../platform/errors';
import { toPublicFileUrl, toStoredFileUrl, type UploadStorage } from '../../platform/storage';
import type { AccountCache } from './account-cache';
import type { UserDoc, UserModel } from './model';
import { countPerDay } from '../../platform/per-day';
import type { Transactions } from '../../platform/transactions';
import { userPolicy } from './policy';
import { PUBLIC_USER_FIELDS, toPublicUser, type UserFields } from './presenters';

export const USER_NOT_FOUND = 'User not found';

/** An unverified sign-up is removed this long after its latest verification link (TTL index). */
export const UNVERIFIED_ACCOUNT_TTL_MS = 48 * 60 * 60_000;

export interface UserServiceDeps {
  models: { User: UserModel };
  writes: Transactions<DomainEvent>;
}

/**
 * Accounts and profiles. Writes that others react to publish their events (`profile.updated`,
 * `session.revoked`...); the bookkeeping of credentials (a reset token stored, a verification
 * link renewed) and of activity (`lastActiveAt`) changes nothing anyone reads, and tells nothing.
 */
export function createUserService({ models: { User }, writes }: UserServiceDeps) {
  const { transaction, publish } = writes;
  /** Runs `write` in a transaction that tells `event` when `write` answers true. */
  const telling = (event: DomainEvent, write: () => Promise<boolean>): Promise<boolean> =>
    transaction(async () => {
      const done = await write();
      if (done) publish(event);
      return done;
    });

  async function userExists(id: number): Promise<boolean> {
    return (await User.exists({ _id: id })) !== null;
  }

  /** A user's public fields, or 404; an unverified sign-up is nobody's business yet. */
  async function findPublicUser(id: number): Promise<UserFields> {
    const user = await User.findOne(
      { _id: id, isVerified: true },
      PUBLIC_USER_FIELDS,
    ).lean<UserFields>();
    if (!user) throw notFound(USER_NOT_FOUND);
    return user;
  }

  /** Users' public fields by id (missing ids are left out). */
  async function publicUsersById(ids: number[]): Promise<Map<number, UserFields>> {
    const users = await User.find({ _id: trusted({ $in: ids }) }, PUBLIC_USER_FIELDS).lean<
      UserFields[]
    >();
    return new Map(users.map((u) => [u._id, u]));
  }

  /** Members as notifications show who acted: id, name and absolute avatar URL. */
  async function actorsById(
    ids: number[],
    publicUrl: string,
  ): Promise<Map<number, { id: number; name: string; avatarUrl: string | null }>> {
    const users = await User.find({ _id: trusted({ $in: ids }) }, { name: 1, avatarUrl: 1 }).lean();
    return new Map(
      users.map((u) => [
        u._id,
        {
          id: u._id,
          name: u.name,
          avatarUrl: u.avatarUrl ? toPublicFileUrl(u.avatarUrl, publicUrl) : null,
        },
      ]),
    );
  }

  async function updateProfile(
    actor: AuthUser,
    userId: number,
    update: ProfileUpdate,
    { publicUrl, storage }: { publicUrl: string; storage: Pick<UploadStorage, 'has' | 'remove'> },
  ): Promise<PublicUser> {
    if (!userPolicy.canEditProfile(actor, userId)) {
      throw forbidden('You can only edit your own profile');
    }
    const changes: { name: string; bio?: string; avatarUrl?: string | null } = {
      name: update.name,
    };
    if (update.bio !== undefined) changes.bio = update.bio;
    let replaced: string | null = null;
    if (update.avatarUrl !== undefined) {
      const avatarUrl = update.avatarUrl ? toStoredFileUrl(update.avatarUrl, publicUrl) : null;
      const current = await User.findById(userId, { avatarUrl: 1 }).lean();
      if (!current) throw notFound(USER_NOT_FOUND);
      // A new avatar must be a file we hold (not a removed one, nor a name made up).
      if (
        avatarUrl !== null &&
        avatarUrl !== current.avatarUrl &&
        !(await storage.has(avatarUrl))
      ) {
        throw new HttpError(400, AVATAR_URL_MESSAGE);
      }
      if (current.avatarUrl !== avatarUrl) replaced = current.avatarUrl;
      changes.avatarUrl = avatarUrl;
    }
    const user = await transaction(async () => {
      const updated = await User.findByIdAndUpdate(
        userId,
        { $set: changes },
        { returnDocument: 'after', projection: PUBLIC_USER_FIELDS, runValidators: true },
      ).lean();
      if (!updated) throw notFound(USER_NOT_FOUND);
      publish({ type: 'profile.updated', userId });
      return updated;
    });
    if (replaced) await removeUnusedUpload(replaced, storage);
    return toPublicUser(user, publicUrl);
  }

  /**
   * Deletes a replaced avatar's file unless another member shows the same upload. A file that
   * cannot be deleted stays behind; the profile change it belonged to has already succeeded.
   */
  async function removeUnusedUpload(
    stored: string,
    storage: Pick<UploadStorage, 'remove'>,
  ): Promise<void> {
    if (await User.exists({ avatarUrl: stored })) return;
    await storage.remove(stored).catch(() => undefined);
  }

  /**
   * The caller behind a token: only existing, verified accounts may act. Records the caller's
   * activity (for DAU/MAU) at most once per `activityThrottleMs`, so most requests write nothing.
   * `activityDueAt`: when the activity is to be recorded again (the caller may be remembered
   * until then).
   */
  async function authenticateUser(
    id: number,
    options: { adminUserId: number; activityThrottleMs: number; now?: Date },
  ): Promise<(AuthUser & { activityDueAt: number }) | undefined> {
    const user = await User.findById(id, {
      name: 1,
      email: 1,
      isVerified: 1,
      lastActiveAt: 1,
      tokensValidAfter: 1,
      suspendedAt: 1,
    }).lean();
    if (!user || !user.isVerified) return undefined;
    const now = options.now ?? new Date();
    // A suspended account's tokens are refused with a message that says why (platform/auth.ts).
    if (user.suspendedAt) {
      return {
        id: user._id,
        name: user.name,
        email: user.email,
        roles: [],
        suspended: true,
        activityDueAt: now.getTime() + options.activityThrottleMs,
      };
    }
    let lastActive = user.lastActiveAt?.getTime() ?? 0;
    if (now.getTime() - lastActive >= options.activityThrottleMs) {
      await User.updateOne({ _id: id }, { $set: { lastActiveAt: now } });
      lastActive = now.getTime();
    }
    return {
      id: user._id,
      name: user.name,
      email: user.email,
      roles: userPolicy.rolesOf(user._id, options.adminUserId),
      sessionsValidAfter: user.tokensValidAfter?.getTime() ?? 0,
      activityDueAt: lastActive + options.activityThrottleMs,
    };
  }

  /**
   * `authenticateUser` behind the app's account cache: a caller seen recently skips the account
   * lookup, a database round trip on every request (see AccountCache for how long and what
   * forgets). A caller is remembered until their activity is due to be recorded again, at most.
   */
  function createAuthenticator(options: {
    adminUserId: number;
    activityThrottleMs: number;
    accounts: AccountCache;
  }): (id: number) => Promise<AuthUser | undefined> {
    const { accounts } = options;
    return async (id) => {
      const hit = accounts.get(id);
      if (hit) return hit;
      const mark = accounts.mark();
      const found = await authenticateUser(id, options);
      if (!found) return undefined;
      const { activityDueAt, ...user } = found;
      accounts.set(user, mark, activityDueAt - Date.now());
      return user;
    };
  }

  /**
   * Accounts as the auth and account-lifecycle modules read and write them (sign-up, e-mail
   * verification, login, passwords, sessions, deletion).
   */
  const accounts = {
    /** Whether a verified account holds this e-mail (an unverified sign-up does not block it). */
    async emailTaken(email: string): Promise<boolean> {
      return (await User.exists({ email, isVerified: true })) !== null;
    },
    /**
     * Creates an unverified account that expires after UNVERIFIED_ACCOUNT_TTL_MS; a taken e-mail
     * fails with a duplicate-key error.
     */
    async create(
      fields: Pick<UserDoc, '_id' | 'name' | 'email' | 'password' | 'verificationToken'>,
    ) {
      const unverifiedExpiresAt = new Date(Date.now() + UNVERIFIED_ACCOUNT_TTL_MS);
      return transaction(async () => {
        const user = (await User.create({ ...fields, unverifiedExpiresAt })).toObject<UserDoc>();
        publish({ type: 'account.registered', userId: user._id });
        return user;
      });
    },
    /**
     * Registering an address whose sign-up is still unverified replaces that sign-up: new name,
     * password and link (the old link stops working), a new 48 hours. Null when the address has
     * no unverified account (none, or verified meanwhile).
     */
    async replacePending(
      fields: Pick<UserDoc, 'name' | 'email' | 'password' | 'verificationToken'>,
    ): Promise<UserDoc | null> {
      const { email, ...changes } = fields;
      return transaction(async () => {
        const user = await User.findOneAndUpdate(
          { email, isVerified: false },
          {
            $set: {
              ...changes,
              unverifiedExpiresAt: new Date(Date.now() + UNVERIFIED_ACCOUNT_TTL_MS),
            },
          },
          { returnDocument: 'after' },
        ).lean<UserDoc>();
        if (user) publish({ type: 'account.registered', userId: user._id });
        return user;
      });
    },
    /** Takes back a sign-up whose verification e-mail could not be sent. */
    async remove(id: number): Promise<void> {
      await telling(
        { type: 'account.deleted', userId: id },
        async () => (await User.deleteOne({ _id: id })).deletedCount > 0,
      );
    },
    /** Marks the account holding this (hashed) verification token verified; false if none does. */
    async verifyByToken(tokenHash: string): Promise<boolean> {
      return transaction(async () => {
        const user = await User.findOneAndUpdate(
          { verificationToken: tokenHash },
          {
            $set: { isVerified: true, verificationToken: null },
            $unset: { unverifiedExpiresAt: 1 },
          },
          { projection: { _id: 1 } },
        ).lean();
        if (user) publish({ type: 'account.verified', userId: user._id });
        return user !== null;
      });
    },
    /** The stored password hash of an account, or null when there is none. */
    async findPasswordHash(id: number): Promise<string | null> {
      const user = await User.findById(id, { password: 1 }).lean();
      return user?.password ?? null;
    },
    /** Stores the hash of a new reset token; it replaces any older one. */
    async setPasswordResetToken(id: number, tokenHash: string, expires: Date): Promise<void> {
      await User.updateOne(
        { _id: id },
        { $set: { passwordResetToken: tokenHash, passwordResetExpires: expires } },
      );
    },
    /**
     * Sets the password of the account holding this unexpired reset token, in one atomic update
     * that also clears the token (it works once), revokes every older session and marks the
     * e-mail verified (the member just proved they read it). False when no account matches.
     */
    async resetPasswordByToken(tokenHash: string, passwordHash: string, now: Date) {
      return transaction(async () => {
        const user = await User.findOneAndUpdate(
          { passwordResetToken: tokenHash, passwordResetExpires: trusted({ $gt: now }) },
          {
            $set: {
              password: passwordHash,
              lastPasswordChange: now,
              tokensValidAfter: now,
              passwordResetToken: null,
              passwordResetExpires: null,
              isVerified: true,
              verificationToken: null,
            },
            $unset: { unverifiedExpiresAt: 1 },
          },
          { projection: { isVerified: 1 } },
        ).lean();
        if (!user) return false;
        publish({ type: 'session.revoked', userId: user._id });
        if (!user.isVerified) publish({ type: 'account.verified', userId: user._id });
        return true;
      });
    },
    /** A new password: every token issued before `now` is refused from now on. */
    async changePassword(id: number, passwordHash: string, now: Date): Promise<void> {
      await telling({ type: 'session.revoked', userId: id }, async () => {
        await User.updateOne(
          { _id: id },
          {
            $set: {
              password: passwordHash,
              lastPasswordChange: now,
              tokensValidAfter: now,
              passwordResetToken: null,
              passwordResetExpires: null,
            },
          },
        );
        return true;
      });
    },
    /** Sign out everywhere: every token issued before `now` is refused from now on. */
    async revokeSessions(id: number, now: Date): Promise<void> {
      await telling({ type: 'session.revoked', userId: id }, async () => {
        await User.updateOne({ _id: id }, { $set: { tokensValidAfter: now } });
        return true;
      });
    },
    /**
     * A new verification token for the unverified account of this e-mail (the old link stops
     * working) and a new expiry; null when there is no unverified account with it.
     */
    async renewVerificationToken(
      email: string,
      tokenHash: string,
      expiresAt: Date,
    ): Promise<Pick<UserDoc, 'name' | 'email'> | null> {
      return User.findOneAndUpdate(
        { email, isVerified: false },
        { $set: { verificationToken: tokenHash, unverifiedExpiresAt: expiresAt } },
        { projection: { name: 1, email: 1 } },
      ).lean();
    },
    /**
     * Removes the account document (in the deletion's transaction, which tells `account.deleted`);
     * answers its stored avatar URL (to remove the file too).
     */
    async removeAccount(id: number): Promise<string | null> {
      const user = await User.findOneAndDelete(
        { _id: id },
        { projection: { avatarUrl: 1 } },
      ).lean();
      return user?.avatarUrl ?? null;
    },
    /** The account with this e-mail, password hash included (login only). */
    async findByEmail(email: string): Promise<UserDoc | null> {
      return User.findOne({ email }).lean<UserDoc>();
    },
  };

  /** Counts for the analytics dashboard. */
  const userCounts = {
    all: (): Promise<number> => User.estimatedDocumentCount(),
    verified: (): Promise<number> => User.countDocuments({ isVerified: true }),
    createdSince: (since: Date): Promise<number> =>
      User.countDocuments({ createdAt: trusted({ $gte: since }) }),
    activeSince: (since: Date): Promise<number> =>
      User.countDocuments({ lastActiveAt: trusted({ $gte: since }) }),
    createdPerDay: (since: Date, timezone: string) => countPerDay(User, {}, since, timezone),
  };

  return {
    userExists,
    findPublicUser,
    publicUsersById,
    actorsById,
    updateProfile,
    createAuthenticator,
    accounts,
    userCounts,
  };
}

export type UserService = ReturnType<typeof createUserService>;
