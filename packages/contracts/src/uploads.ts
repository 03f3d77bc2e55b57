import { z } from 'zod';

export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const AVATAR_FIELD = 'avatar';

/** `POST /api/upload/avatar` response: an absolute URL served by the API. */
export const avatarUploadResponseSchema = z.object({ avatarUrl: z.string() });
export type AvatarUploadResponse = z.infer<typeof avatarUploadResponseSchema>;
