import { z } from 'zod';
import { idSchema, isoDateSchema } from './common';

export const NAME_MAX_LENGTH = 100;
export const BIO_MAX_LENGTH = 500;
export const AVATAR_URL_MAX_LENGTH = 2048;

/** Path of an avatar stored by the API's own upload route. */
const UPLOAD_PATH_PATTERN = /^\/uploads\/[a-f0-9]{32}\.(webp|png|jpg)$/;

/**
 * An avatar is an http(s) URL or one of the API's own upload paths; never `javascript:`, `data:`
 * or any other scheme. An empty string removes the avatar.
 */
export const avatarUrlSchema = z
  .string('Avatar URL must be text')
  .trim()
  .max(AVATAR_URL_MAX_LENGTH, `Avatar URL must be at most ${AVATAR_URL_MAX_LENGTH} characters`)
  .refine((value) => value === '' || isSafeAvatarUrl(value), {
    message: 'Avatar URL must be an http(s) image URL',
  });

function isSafeAvatarUrl(value: string): boolean {
  if (UPLOAD_PATH_PATTERN.test(value)) return true;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

/** `PUT /api/users/:id` payload (spec §3 "Profile edit payload" and §5 profile form rules). */
export const profileUpdateSchema = z.strictObject({
  name: z
    .string('Name is required')
    .trim()
    .min(1, 'Name is required')
    .max(NAME_MAX_LENGTH, 'Name must be less than 100 characters'),
  bio: z
    .string('Bio must be text')
    .trim()
    .max(BIO_MAX_LENGTH, 'Bio must be less than 500 characters')
    .optional(),
  avatarUrl: avatarUrlSchema.nullable().optional(),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** A user as any signed-in member may see it. */
export const publicUserSchema = z.object({
  id: idSchema,
  name: z.string(),
  email: z.string(),
  avatarUrl: z.string().nullable(),
  bio: z.string(),
  createdAt: isoDateSchema,
});
export type PublicUser = z.infer<typeof publicUserSchema>;

/** "User in lists" (following / followers). */
export const userInListSchema = z.object({
  id: idSchema,
  name: z.string(),
  email: z.string(),
  bio: z.string(),
  avatarUrl: z.string().nullable(),
  isFollowing: z.boolean(),
});
export type UserInList = z.infer<typeof userInListSchema>;
export const userListSchema = z.array(userInListSchema);

/** `POST /api/users/:id/follow` response. */
export const followToggleResponseSchema = z.object({
  following: z.boolean(),
  followersCount: z.number().int().nonnegative(),
});
export type FollowToggleResponse = z.infer<typeof followToggleResponseSchema>;
