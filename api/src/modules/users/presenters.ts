import type { PublicUser, UserInList } from '@campus/contracts';
import type { UserDoc } from './model';

type UserFields = Pick<UserDoc, '_id' | 'name' | 'email' | 'avatarUrl' | 'bio' | 'createdAt'>;

/** The only way a user leaves the API: never the hash, tokens or internal fields. */
export function toPublicUser(user: UserFields): PublicUser {
  return {
    id: user._id,
    name: user.name,
    email: user.email,
    avatarUrl: user.avatarUrl ?? null,
    bio: user.bio ?? '',
    createdAt: user.createdAt.toISOString(),
  };
}

export function toUserInList(user: UserFields, isFollowing: boolean): UserInList {
  return {
    id: user._id,
    name: user.name,
    email: user.email,
    bio: user.bio ?? '',
    avatarUrl: user.avatarUrl ?? null,
    isFollowing,
  };
}

/** Projection for public fields. */
export const PUBLIC_USER_FIELDS = { _id: 1, name: 1, email: 1, avatarUrl: 1, bio: 1, createdAt: 1 };
