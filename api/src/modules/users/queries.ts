/** Members as other modules read them: existence, public fields, actors, analytics counts. */
import { trusted } from 'mongoose';
import type { AppContext } from '../../context';
import { notFound } from '../../platform/errors';
import { countPerDay } from '../../platform/per-day';
import { toPublicFileUrl } from '../../platform/storage';
import { usersOf } from './model';
import { PUBLIC_USER_FIELDS, type UserFields } from './presenters';

export const USER_NOT_FOUND = 'User not found';

export async function userExists(ctx: AppContext, id: number): Promise<boolean> {
  return (await usersOf(ctx).exists({ _id: id })) !== null;
}

/** Which of `ids` are stored accounts (one read, whatever their number). */
export async function existingUserIds(ctx: AppContext, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const found = await usersOf(ctx)
    .find({ _id: trusted({ $in: [...new Set(ids)] }) }, { _id: 1 })
    .lean<Array<{ _id: number }>>();
  return new Set(found.map((u) => u._id));
}

/** A user's public fields, or 404; an unverified sign-up is nobody's business yet. */
export async function findPublicUser(ctx: AppContext, id: number): Promise<UserFields> {
  const user = await usersOf(ctx)
    .findOne({ _id: id, isVerified: true }, PUBLIC_USER_FIELDS)
    .lean<UserFields>();
  if (!user) throw notFound(USER_NOT_FOUND);
  return user;
}

/** Users' public fields by id (missing ids are left out). */
export async function publicUsersById(
  ctx: AppContext,
  ids: number[],
): Promise<Map<number, UserFields>> {
  const users = await usersOf(ctx)
    .find({ _id: trusted({ $in: ids }) }, PUBLIC_USER_FIELDS)
    .lean<UserFields[]>();
  return new Map(users.map((u) => [u._id, u]));
}

/**
 * Members as notifications show who acted: id, name and absolute avatar URL, through the app's
 * author cache (most actors were just shown on a post or a comment).
 */
export async function actorsById(
  ctx: AppContext,
  ids: number[],
): Promise<Map<number, { id: number; name: string; avatarUrl: string | null }>> {
  const authors = await ctx.caches.authors.byId(ids);
  return new Map(
    [...authors.values()].map((a) => [
      a._id,
      {
        id: a._id,
        name: a.name,
        avatarUrl: a.avatarUrl ? toPublicFileUrl(a.avatarUrl, ctx.config.publicUrl) : null,
      },
    ]),
  );
}

/** Counts for the analytics dashboard. */
export function userCounts(ctx: AppContext) {
  const User = usersOf(ctx);
  return {
    all: (): Promise<number> => User.estimatedDocumentCount(),
    verified: (): Promise<number> => User.countDocuments({ isVerified: true }),
    createdSince: (since: Date): Promise<number> =>
      User.countDocuments({ createdAt: trusted({ $gte: since }) }),
    activeSince: (since: Date): Promise<number> =>
      User.countDocuments({ lastActiveAt: trusted({ $gte: since }) }),
    createdPerDay: (since: Date, timezone: string) => countPerDay(User, {}, since, timezone),
  };
}
