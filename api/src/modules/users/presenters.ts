import type { PostAuthor, PublicUser, UserInList } from '@campus/contracts';
import { toPublicFileUrl } from '../../platform/storage';
import type { AuthorDoc } from './author-cache';
import type { UserDoc } from './model';

export type UserFields = Pick<
  UserDoc,
  '_id' | 'name' | 'email' | 'avatarUrl' | 'bio' | 'createdAt' | 'affiliation'
>;

/** Avatars of our own uploads are stored as paths and leave the API as absolute URLs. */
function avatarUrl(user: Pick<UserDoc, 'avatarUrl'>, publicUrl: string): string | null {
  return user.avatarUrl ? toPublicFileUrl(user.avatarUrl, publicUrl) : null;
}

/** The only way a user leaves the API: never the hash, tokens or internal fields. */
export function toPublicUser(user: UserFields, publicUrl: string): PublicUser {
  return {
    id: user._id,
    name: user.name,
    email: user.email,
    avatarUrl: avatarUrl(user, publicUrl),
    bio: user.bio ?? '',
    createdAt: user.createdAt.toISOString(),
    ...(user.affiliation ? { affiliation: user.affiliation } : {}),
  };
}

export function toUserInList(
  user: UserFields,
  isFollowing: boolean,
  publicUrl: string,
): UserInList {
  return {
    id: user._id,
    name: user.name,
    email: user.email,
    bio: user.bio ?? '',
    avatarUrl: avatarUrl(user, publicUrl),
    isFollowing,
  };
}

/** Projection for public fields. */
export const PUBLIC_USER_FIELDS = {
  _id: 1,
  name: 1,
  email: 1,
  avatarUrl: 1,
  bio: 1,
  createdAt: 1,
  affiliation: 1,
};

/** An author as posts and comments show it; our own avatar uploads leave as absolute URLs. */
export function toAuthor(id: number, user: AuthorDoc | undefined, publicUrl: string): PostAuthor {
  // Accounts are never deleted, so a missing author means inconsistent data: show it plainly.
  if (!user) return { id, name: 'Unknown user', email: '', avatarUrl: null };
  return {
    id: user._id,
    name: user.name,
    email: user.email,
    avatarUrl: avatarUrl(user, publicUrl),
    ...(user.affiliation ? { affiliation: user.affiliation } : {}),
  };
}
