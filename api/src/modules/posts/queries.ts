/** Posts as the posts module and others read them: visibility, previews, moderation, counts. */
import { trusted } from 'mongoose';
import { STREAM_POSTS_MAX_COUNT, type FeedTab } from '@campus/contracts';
import type { AppContext } from '../../context';
import { notFound } from '../../platform/errors';
import { findOneBatch } from '../../platform/one-batch';
import { countPerDay } from '../../platform/per-day';
import { postsOf, type PostDoc } from './model';
import type { StoredImage } from '../media/present';

export const POST_NOT_FOUND = 'Post not found';

export const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/**
 * What every reader may see: not deleted, and not by a suspended author (hidden until they are
 * reactivated). A fresh object each time: mongoose casts filters in place.
 */
export function visible() {
  return { deletedAt: null, authorSuspended: trusted({ $ne: true }) };
}

/**
 * A page of visible posts matching `filter`, newest first, in one command (`findOneBatch`):
 * the stored documents as they are (what `lean()` gives) without a mongoose query to build and
 * cast (the filter is made here of numbers, dates and booleans). What every feed page costs
 * when it is not cached.
 */
export function newestVisible(
  ctx: AppContext,
  filter: Record<string, unknown>,
  page: { skip?: number; limit: number },
): Promise<PostDoc[]> {
  return findOneBatch<PostDoc>(postsOf(ctx), {
    filter: { ...filter, deletedAt: null, authorSuspended: { $ne: true } },
    sort: NEWEST_FIRST,
    skip: page.skip ?? 0,
    limit: page.limit,
  });
}

/** Whether the post exists and is not deleted. */
export async function isPostVisible(ctx: AppContext, id: number): Promise<boolean> {
  return (await postsOf(ctx).exists({ _id: id, ...visible() })) !== null;
}

/**
 * A visible post (not deleted, author not suspended), or 404. `includeHidden`: a suspended
 * author's post too (deleting it: only moderation can, the author's tokens being refused).
 */
export async function findVisiblePost(
  ctx: AppContext,
  id: number,
  { includeHidden = false } = {},
): Promise<PostDoc> {
  const post = await postsOf(ctx)
    .findOne(includeHidden ? { _id: id, deletedAt: null } : { _id: id, ...visible() })
    .lean<PostDoc>();
  if (!post) throw notFound(POST_NOT_FOUND);
  return post;
}

/**
 * A visible post for a write about it (a like, a comment), or 404: through the feed's posts,
 * which hold most posts being liked or commented (a write forgets the post it changes), else
 * one read. The write itself is what decides: a post deleted meanwhile fails or is counted
 * as with a read here.
 */
export async function visiblePostForWrite(ctx: AppContext, id: number): Promise<PostDoc> {
  const post = (await ctx.caches.feed.postsById([id])).get(id);
  if (!post || post.deletedAt != null || post.authorSuspended === true)
    throw notFound(POST_NOT_FOUND);
  return post;
}

/**
 * Previews of visible posts by id (for notifications): a repost shows its quote, a plain repost
 * (no words of its own) the words of the post it shares (issue 41: 'liked your post' said which
 * post only by its id), read in a second query only when the previews include plain reposts.
 */
export async function postPreviews(
  ctx: AppContext,
  ids: number[],
): Promise<Map<number, { id: number; content: string }>> {
  const posts = await postsOf(ctx)
    .find(
      { _id: trusted({ $in: ids }), ...visible() },
      { content: 1, repostComment: 1, originalPostId: 1 },
    )
    .lean();
  const plain = posts.filter((p) => !p.content && !p.repostComment && p.originalPostId != null);
  const shared = plain.length
    ? await postsOf(ctx)
        .find(
          {
            _id: trusted({ $in: [...new Set(plain.map((p) => p.originalPostId!))] }),
            ...visible(),
          },
          { content: 1 },
        )
        .lean()
    : [];
  const sharedWords = new Map(shared.map((p) => [p._id, p.content]));
  return new Map(
    posts.map((p) => [
      p._id,
      {
        id: p._id,
        content:
          p.content ||
          p.repostComment ||
          (p.originalPostId != null ? sharedWords.get(p.originalPostId) : undefined) ||
          '',
      },
    ]),
  );
}

/** Posts as the administrator's report queue shows them (deleted and hidden ones included). */
export async function postsForModeration(
  ctx: AppContext,
  ids: number[],
): Promise<
  Map<number, { authorId: number; content: string; deleted: boolean; images: StoredImage[] }>
> {
  if (ids.length === 0) return new Map();
  const posts = await postsOf(ctx)
    .find(
      { _id: trusted({ $in: ids }) },
      { authorId: 1, content: 1, repostComment: 1, deletedAt: 1, images: 1 },
    )
    .lean();
  return new Map(
    posts.map((p) => [
      p._id,
      {
        authorId: p.authorId,
        content: p.content || p.repostComment || '',
        deleted: p.deletedAt !== null,
        images: p.images ?? [],
      },
    ]),
  );
}

/** Posts sharing these comments on their authors' timelines (removed with the comments). */
export async function postIdsSharingComments(
  ctx: AppContext,
  commentIds: number[],
): Promise<number[]> {
  if (commentIds.length === 0) return [];
  const posts = await postsOf(ctx)
    .find({ sharedCommentId: trusted({ $in: commentIds }), deletedAt: null }, { _id: 1 })
    .lean();
  return posts.map((p) => p._id);
}

/** Every post of an author, deleted ones included (account deletion). */
export async function postIdsByAuthor(ctx: AppContext, authorId: number): Promise<number[]> {
  const posts = await postsOf(ctx).find({ authorId }, { _id: 1 }).lean();
  return posts.map((p) => p._id);
}

/**
 * The ids of the visible posts by others that `tab` shows after `sinceId` (post ids are
 * sequential), at most `STREAM_POSTS_MAX_COUNT`: the live stream's new-posts count. Following:
 * the followed authors' posts and those of the followed tags (issue 40).
 */
export async function newPostIds(
  ctx: AppContext,
  tab: FeedTab,
  sinceId: number,
  viewerId: number,
  followed: number[],
  followedTags: string[] = [],
): Promise<number[]> {
  const byFollowed = { authorId: trusted({ $in: followed.filter((id) => id !== viewerId) }) };
  const authors =
    tab !== 'following'
      ? { authorId: trusted({ $ne: viewerId }) }
      : followedTags.length === 0
        ? byFollowed
        : {
            $or: [
              byFollowed,
              { tags: trusted({ $in: followedTags }), authorId: trusted({ $ne: viewerId }) },
            ],
          };
  const posts = await postsOf(ctx)
    .find(
      {
        _id: trusted({ $gt: sinceId }),
        ...visible(),
        ...authors,
        ...(tab === 'jd' ? { isJdTagged: true } : {}),
      },
      { _id: 1 },
    )
    .sort({ _id: -1 })
    .limit(STREAM_POSTS_MAX_COUNT)
    .lean();
  return posts.map((p) => p._id);
}

/** Counts of visible posts for the analytics dashboard. */
/** Counts of visible posts for the analytics dashboard. */
export function postCounts(ctx: AppContext) {
  return {
    visible: (): Promise<number> => postsOf(ctx).countDocuments({ deletedAt: null }),
    visibleSince: (since: Date): Promise<number> =>
      postsOf(ctx).countDocuments({ deletedAt: null, createdAt: trusted({ $gte: since }) }),
    visiblePerDay: (since: Date, timezone: string) =>
      countPerDay(postsOf(ctx), { deletedAt: null }, since, timezone),
  };
}
