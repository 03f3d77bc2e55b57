import { z } from 'zod';
import { postSchema } from './posts';
import { publicUserSchema } from './users';

/** `GET /api/users/:id` (spec §3 "Profile response"). */
export const profileSchema = publicUserSchema.extend({
  followingCount: z.number().int().nonnegative(),
  followersCount: z.number().int().nonnegative(),
  isFollowing: z.boolean(),
  posts: z.array(postSchema),
});
export type Profile = z.infer<typeof profileSchema>;
