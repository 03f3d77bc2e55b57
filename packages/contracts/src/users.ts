import { z } from 'zod';
import {
  idSchema,
  invisibleCharactersMessage,
  isoDateSchema,
  isVisibleText,
  personNameSchema,
} from './common';

export const NAME_MAX_LENGTH = 100;
export const BIO_MAX_LENGTH = 500;
export const AVATAR_URL_MAX_LENGTH = 2048;

/** Path of an avatar stored by the API's own upload route. */
const UPLOAD_PATH_PATTERN = /^\/uploads\/[a-f0-9]{32}\.(webp|png|jpg)$/;

export const AVATAR_URL_MESSAGE = 'Avatar must be a picture uploaded to Campus';

/**
 * The upload path in an avatar URL: the path itself (`/uploads/<name>`, as the database keeps
 * it), or an absolute http(s) URL of that path without credentials, query or fragment (as the
 * upload route hands it out). Anything else (another site's image, which every viewer's browser
 * would fetch: a tracking pixel; `javascript:`, `data:`) is null. Which origin is this API's own
 * only the API knows: it checks the URL's origin against its `PUBLIC_URL`.
 */
export function uploadPathOf(value: string): string | null {
  if (UPLOAD_PATH_PATTERN.test(value)) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const plain =
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.username === '' &&
    url.password === '' &&
    url.search === '' &&
    url.hash === '' &&
    // new URL() resolves dot segments and escapes; the text itself must already be the path.
    value === `${url.origin}${url.pathname}`;
  return plain && UPLOAD_PATH_PATTERN.test(url.pathname) ? url.pathname : null;
}

/** An avatar is one of the API's own uploads; an empty string removes the avatar. */
export const avatarUrlSchema = z
  .string('Avatar URL must be text')
  .trim()
  .max(AVATAR_URL_MAX_LENGTH, `Avatar URL must be at most ${AVATAR_URL_MAX_LENGTH} characters`)
  .refine((value) => value === '' || uploadPathOf(value) !== null, {
    message: AVATAR_URL_MESSAGE,
  });

/** A display name (spec §5 messages), shared by registration and the profile form. */
export const displayNameSchema = personNameSchema('Name', NAME_MAX_LENGTH, {
  required: 'Name is required',
  tooLong: 'Name must be less than 100 characters',
});

/** `PUT /api/users/:id` payload (spec §3 "Profile edit payload" and §5 profile form rules). */
export const profileUpdateSchema = z.strictObject({
  name: displayNameSchema,
  bio: z
    .string('Bio must be text')
    .trim()
    .max(BIO_MAX_LENGTH, 'Bio must be less than 500 characters')
    .refine((value) => isVisibleText(value, { lineBreaks: true }), {
      message: invisibleCharactersMessage('Bio'),
    })
    .optional(),
  avatarUrl: avatarUrlSchema.nullable().optional(),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/**
 * Who a member is beyond a student: `alumni` for accounts registered through an invitation (an
 * approved account application). Absent for everyone else; clients show an Alumni badge.
 */
export const AFFILIATIONS = ['alumni'] as const;
export const affiliationSchema = z.enum(AFFILIATIONS);
export type Affiliation = z.infer<typeof affiliationSchema>;

/** A user as any signed-in member may see it. */
export const publicUserSchema = z.object({
  id: idSchema,
  name: z.string(),
  email: z.string(),
  avatarUrl: z.string().nullable(),
  bio: z.string(),
  createdAt: isoDateSchema,
  affiliation: affiliationSchema.optional(),
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

/** How many people `GET /api/users?q=` answers at most. */
export const USER_SEARCH_LIMIT = 20;
export const USER_SEARCH_QUERY_MAX_LENGTH = 100;

/**
 * `GET /api/users?q=` query: a prefix of a name (any word of it) or of an e-mail address, in any
 * case and with or without accents ('ada', 'OKAF', 'jose' finds José).
 */
export const userSearchQuerySchema = z.object({
  q: z
    .string('q is required')
    .trim()
    .min(1, 'q is required')
    .max(
      USER_SEARCH_QUERY_MAX_LENGTH,
      `q must be at most ${USER_SEARCH_QUERY_MAX_LENGTH} characters`,
    ),
});
export type UserSearchQuery = z.infer<typeof userSearchQuerySchema>;

/** `GET /api/users?q=` response: at most 20 verified, active members (the caller included). */
export const userSearchResultSchema = userListSchema;
export type UserSearchResult = z.infer<typeof userSearchResultSchema>;

/** How many people `GET /api/users/suggestions` answers at most. */
export const USER_SUGGESTIONS_LIMIT = 10;

/**
 * One person to follow: someone followed by people the caller follows (`mutualCount` of them),
 * or, to fill the list, one of the most followed members (`mutualCount` 0).
 */
export const userSuggestionSchema = userInListSchema.extend({
  isFollowing: z.literal(false),
  /** How many of the people the caller follows follow this person. */
  mutualCount: z.number().int().nonnegative(),
  followersCount: z.number().int().nonnegative(),
});
export type UserSuggestion = z.infer<typeof userSuggestionSchema>;
export const userSuggestionListSchema = z.array(userSuggestionSchema).max(USER_SUGGESTIONS_LIMIT);
