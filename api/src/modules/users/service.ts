import { trusted } from 'mongoose';
import type { ProfileUpdate, PublicUser } from '@campus/contracts';
import type { AuthUser } from '../../platform/auth';
import { forbidden, notFound } from '../../platform/errors';
import { toPublicFileUrl, toStoredFileUrl } from '../../platform/storage';
import type { AccountCache } from './account-cache';
import type { UserDoc, UserModel } from './model';
import { countPerDay } from '../../platform/per-day';
import { userPolicy } from './policy';
import { PUBLIC_USER_FIELDS, toPublicUser, type UserFields } from './presenters';

export const USER_NOT_FOUND = 'User not found';

export interface UserServiceDeps {
  models: { User: UserModel };
}

export function createUserService({ models: { User } }: UserServiceDeps) {
  async function userExists(id: number): Promise<boolean> {
    return (await User.exists({ _id: id })) !== null;
  }

  /** A user's public fields, or 404. */
  async function findPublicUser(id: number): Promise<UserFields> {
    const user = await User.findById(id, PUBLIC_USER_FIELDS).lean<UserFields>();
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
    publicUrl: string,
  ): Promise<PublicUser> {
    if (!userPolicy.canEditProfile(actor, userId)) {
      throw forbidden('You can only edit your own profile');
    }
    const changes: { name: string; bio?: string; avatarUrl?: string | null } = {
      name: update.name,
    };
    if (update.bio !== undefined) changes.bio = update.bio;
    if (update.avatarUrl !== undefined) {
      changes.avatarUrl = update.avatarUrl ? toStoredFileUrl(update.avatarUrl, publicUrl) : null;
    }
    const user = await User.findByIdAndUpdate(
      userId,
      { $set: changes },
      { returnDocument: 'after', projection: PUBLIC_USER_FIELDS, runValidators: true },
    ).lean();
    if (!user) throw notFound(USER_NOT_FOUND);
    return toPublicUser(user, publicUrl);
  }

  /**
   * The caller behind a token: only existing, verified accounts may act. Records the caller's
   * activity (for DAU/MAU) at most once per `activityThrottleMs`, so most requests write nothing.
   */
  async function authenticateUser(
    id: number,
    options: { adminUserId: number; activityThrottleMs: number; now?: Date },
  ): Promise<AuthUser | undefined> {
    const user = await User.findById(id, {
      name: 1,
      email: 1,
      isVerified: 1,
      lastActiveAt: 1,
    }).lean();
    if (!user || !user.isVerified) return undefined;
    const now = options.now ?? new Date();
    const lastActive = user.lastActiveAt?.getTime() ?? 0;
    if (now.getTime() - lastActive >= options.activityThrottleMs) {
      await User.updateOne({ _id: id }, { $set: { lastActiveAt: now } });
    }
    return {
      id: user._id,
      name: user.name,
      email: user.email,
      roles: userPolicy.rolesOf(user._id, options.adminUserId),
    };
  }

  /**
   * `authenticateUser` behind the app's account cache: a caller seen recently skips the account
   * lookup, a database round trip on every request (see AccountCache for how long and what forgets).
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
      const user = await authenticateUser(id, options);
      if (user) accounts.set(user, mark);
      return user;
    };
  }

  /** Accounts as the auth module reads and writes them (sign-up, e-mail verification, login). */
  const accounts = {
    async emailTaken(email: string): Promise<boolean> {
      return (await User.exists({ email })) !== null;
    },
    /** Creates an unverified account; a taken e-mail fails with a duplicate-key error. */
    async create(
      fields: Pick<UserDoc, '_id' | 'name' | 'email' | 'password' | 'verificationToken'>,
    ) {
      return (await User.create(fields)).toObject<UserDoc>();
    },
    async remove(id: number): Promise<void> {
      await User.deleteOne({ _id: id });
    },
    /** Marks the account holding this (hashed) verification token verified; false if none does. */
    async verifyByToken(tokenHash: string): Promise<boolean> {
      const user = await User.findOneAndUpdate(
        { verificationToken: tokenHash },
        { $set: { isVerified: true, verificationToken: null } },
      ).lean();
      return user !== null;
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
