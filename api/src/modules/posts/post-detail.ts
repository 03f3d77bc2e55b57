import type { CommentPage, Post as PostView, PostDetail } from '@campus/contracts';
import type { AppContext } from '../../context';
import { notFound } from '../../platform/errors';
import { listComments, type CommentCursor } from '../comments/list-comments';
import { postsOf, type PostDoc } from './model';
import { presentPosts } from './presenters';
import { NEWEST_FIRST, POST_NOT_FOUND, visible } from './queries';

const PROFILE_POSTS_LIMIT = 100;

export async function getPostDetail(
  ctx: AppContext,
  id: number,
  viewerId: number,
): Promise<PostDetail> {
  // Through the feed's post cache (forgotten on every write to the post), like feed pages.
  const post = (await ctx.caches.feed.postsById([id])).get(id);
  if (!post || post.deletedAt != null || post.authorSuspended === true)
    throw notFound(POST_NOT_FOUND);
  const [[view], page] = await Promise.all([
    presentPosts(ctx, [post], viewerId),
    listComments(ctx, id, viewerId),
  ]);
  return { ...view!, comments: page.comments, commentsNextCursor: page.nextCursor };
}

/** The page of a visible post's comments after `cursor` (the detail holds the first). */
export async function listPostComments(
  ctx: AppContext,
  id: number,
  viewerId: number,
  cursor: CommentCursor | undefined,
): Promise<CommentPage> {
  const post = (await ctx.caches.feed.postsById([id])).get(id);
  if (!post || post.deletedAt != null || post.authorSuspended === true)
    throw notFound(POST_NOT_FOUND);
  return listComments(ctx, id, viewerId, { cursor });
}

/** The posts a profile lists: the user's visible posts synced to the profile, newest first. */
export async function listProfilePosts(
  ctx: AppContext,
  userId: number,
  viewerId: number,
): Promise<PostView[]> {
  const posts = await postsOf(ctx)
    .find({ authorId: userId, syncToProfile: true, ...visible() })
    .sort(NEWEST_FIRST)
    .limit(PROFILE_POSTS_LIMIT)
    .lean<PostDoc[]>();
  return presentPosts(ctx, posts, viewerId);
}
