import type { CommentPage, Post as PostView, PostDetail } from '@campus/contracts';
import type { AppContext } from '../../context';
import { notFound } from '../../platform/errors';
import { listComments, type CommentCursor } from '../comments/list-comments';
import { viewerSafety } from '../safety/relations';
import { postsOf, type PostDoc } from './model';
import { presentPosts } from './presenters';
import { NEWEST_FIRST, POST_NOT_FOUND, visible } from './queries';
import { screenPosts } from './screen';

const PROFILE_POSTS_LIMIT = 100;

export async function getPostDetail(
  ctx: AppContext,
  id: number,
  viewerId: number,
): Promise<PostDetail> {
  // Through the feed's post cache (forgotten on every write to the post), like feed pages.
  const post = await postForViewer(ctx, id, viewerId);
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
  await postForViewer(ctx, id, viewerId);
  return listComments(ctx, id, viewerId, { cursor });
}

/**
 * A visible post the viewer may open, or 404: not one by a member blocked either way, nor a
 * repost or quote of one (it reads as unavailable). A muted member's post opens (the viewer
 * followed a link to it).
 */
async function postForViewer(ctx: AppContext, id: number, viewerId: number): Promise<PostDoc> {
  const post = (await ctx.caches.feed.postsById([id])).get(id);
  if (!post || post.deletedAt != null || post.authorSuspended === true)
    throw notFound(POST_NOT_FOUND);
  const safety = await viewerSafety(ctx, viewerId);
  const { kept } = await screenPosts(ctx, safety, [post], { hideMuted: false });
  if (kept.length === 0) throw notFound(POST_NOT_FOUND);
  return post;
}

/**
 * The posts a profile lists: the user's visible posts synced to the profile, newest first;
 * reposts of members blocked either way left out, posts with a muted word marked with it.
 */
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
  const safety = await viewerSafety(ctx, viewerId);
  const { kept, muted } = await screenPosts(ctx, safety, posts, { hideMuted: false });
  const views = await presentPosts(ctx, kept, viewerId);
  return muted.size
    ? views.map((v) => (muted.has(v.id) ? { ...v, mutedWord: muted.get(v.id)! } : v))
    : views;
}
