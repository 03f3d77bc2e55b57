import { trusted } from 'mongoose';
import type {
  CreatePostRequest,
  FeedQuery,
  Post as PostView,
  PostDetail,
  RepostRequest,
} from '@campus/contracts';
import type { AuthUser } from '../../platform/auth';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { isDuplicateKey } from '../../platform/mongo-errors';
import { startOfDayIn } from '../../platform/time';
import { listComments } from '../comments/service';
import { nextId } from '../counters/model';
import { Follow } from '../follows/model';
import { notify } from '../notifications/service';
import { Repost } from '../reposts/model';
import { Post, type PostDoc } from './model';
import { postPolicy } from './policy';
import { presentPosts, type PostReads } from './presenters';

export const POST_NOT_FOUND = 'Post not found';
export const PROFILE_POSTS_LIMIT = 100;

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A visible (not deleted) post, or 404. */
export async function findVisiblePost(id: number): Promise<PostDoc> {
  const post = await Post.findOne({ _id: id, deletedAt: null }).lean<PostDoc>();
  if (!post) throw notFound(POST_NOT_FOUND);
  return post;
}

export async function createPost(
  author: AuthUser,
  input: CreatePostRequest,
  reads: PostReads,
): Promise<PostView> {
  const post = await Post.create({
    _id: await nextId('posts'),
    authorId: author.id,
    content: input.content,
    syncToProfile: input.syncToProfile ?? true,
    isJdTagged: input.isJdTagged ?? false,
  });
  const [view] = await presentPosts([post.toObject()], author.id, reads);
  return view!;
}

export async function getPostDetail(
  id: number,
  viewerId: number,
  reads: PostReads,
): Promise<PostDetail> {
  const post = await findVisiblePost(id);
  const [[view], comments] = await Promise.all([
    presentPosts([post], viewerId, reads),
    listComments(id, viewerId, reads),
  ]);
  return { ...view!, comments };
}

/** Soft-deletes the actor's own post; deleting a repost withdraws it from the original's count. */
export async function deletePost(actor: AuthUser, id: number): Promise<void> {
  const post = await findVisiblePost(id);
  if (!postPolicy.canDelete(actor, post)) throw forbidden('You can only delete your own posts');
  const marked = await Post.updateOne(
    { _id: id, deletedAt: null },
    { $set: { deletedAt: new Date() } },
  );
  if (marked.modifiedCount === 0) throw notFound(POST_NOT_FOUND); // deleted concurrently
  if (post.originalPostId !== null && post.sharedCommentId === null) {
    const removed = await Repost.deleteOne({ repostPostId: id });
    if (removed.deletedCount === 1) {
      await Post.updateOne({ _id: post.originalPostId }, { $inc: { repostsCount: -1 } });
    }
  }
}

/**
 * Reposts a post, with an optional quote. A user reposts a post at most once (409 after that,
 * until they delete their repost); a repost cannot itself be reposted (400).
 */
export async function repost(
  actor: AuthUser,
  id: number,
  input: RepostRequest,
  reads: PostReads,
): Promise<PostView> {
  const original = await findVisiblePost(id);
  if (!postPolicy.canRepost(original)) throw badRequest('A repost cannot be reposted');
  const repostPostId = await nextId('posts');
  try {
    await Repost.create({
      _id: await nextId('reposts'),
      userId: actor.id,
      postId: id,
      repostPostId,
    });
  } catch (err) {
    if (isDuplicateKey(err)) throw conflict('You have already reposted this post');
    throw err;
  }
  const comment = input.comment ? input.comment : null;
  const created = await Post.create({
    _id: repostPostId,
    authorId: actor.id,
    content: '',
    originalPostId: id,
    repostComment: comment,
  });
  await Post.updateOne({ _id: id }, { $inc: { repostsCount: 1 } });
  if (original.authorId !== actor.id) {
    await notify({
      userId: original.authorId,
      type: 'repost',
      actorId: actor.id,
      postId: id,
      dedupeKey: `repost:${id}:${actor.id}`,
    });
  }
  const [view] = await presentPosts([created.toObject()], actor.id, reads);
  return view!;
}

export interface FeedOptions extends PostReads {
  timezone: string;
  now?: Date;
}

/**
 * The newest posts of `authors`, one page. Reading every post of every followed author to sort
 * them costs as much as those authors ever wrote; instead the page is first looked for among
 * recent posts (a day per 20 posts the page reaches down to: page 1 looks at the last day),
 * which the index on (authorId, deletedAt, createdAt) reads alone. A full page found there is
 * exactly the page (every newer post is in the window); otherwise the authors post little, and
 * reading all their posts is cheap. One query, sometimes two.
 */
async function followingPage(
  authors: number[],
  page: { skip: number; limit: number },
  now: Date,
): Promise<PostDoc[]> {
  const query = (since: Date | undefined) =>
    Post.find({
      authorId: trusted({ $in: authors }),
      deletedAt: null,
      ...(since ? { createdAt: trusted({ $gte: since }) } : {}),
    })
      .sort(NEWEST_FIRST)
      .skip(page.skip)
      .limit(page.limit)
      .lean<PostDoc[]>();
  const days = Math.ceil((page.skip + page.limit) / 20);
  const recent = await query(new Date(now.getTime() - days * DAY_MS));
  return recent.length === page.limit ? recent : query(undefined);
}

/** One page of a feed tab, newest first (Top Posts: today's, most engaged first). */
export async function listFeed(
  viewerId: number,
  query: FeedQuery,
  opts: FeedOptions,
): Promise<PostView[]> {
  const page = { skip: query.offset, limit: query.limit };
  const at = `${page.skip}:${page.limit}`;
  let posts: PostDoc[];
  if (query.tab === 'following') {
    posts = await opts.feed.cachedPage('following', `${viewerId}:${at}`, async () => {
      // The caller's own posts appear too, so a new post shows up where its author is looking.
      const follows = await Follow.find({ followerId: viewerId }, { followingId: 1 }).lean();
      const authors = [viewerId, ...follows.map((f) => f.followingId)];
      return followingPage(authors, page, opts.now ?? new Date());
    });
  } else if (query.tab === 'jd') {
    posts = await opts.feed.cachedPage('shared', `jd:${at}`, () =>
      Post.find({ isJdTagged: true, deletedAt: null })
        .sort(NEWEST_FIRST)
        .skip(page.skip)
        .limit(page.limit)
        .lean<PostDoc[]>(),
    );
  } else if (query.topFilter === 'true') {
    const today = startOfDayIn(opts.timezone, opts.now);
    posts = await opts.feed.cachedPage('top', `${today.getTime()}:${at}`, () =>
      Post.aggregate<PostDoc>([
        { $match: { deletedAt: null, createdAt: { $gte: today } } },
        {
          $addFields: {
            score: { $add: ['$likesCount', '$commentsCount', '$repostsCount'] },
          },
        },
        { $sort: { score: -1, createdAt: -1, _id: -1 } },
        { $skip: page.skip },
        { $limit: page.limit },
        { $project: { score: 0 } },
      ]),
    );
  } else {
    posts = await opts.feed.cachedPage('shared', `all:${at}`, () =>
      Post.find({ deletedAt: null })
        .sort(NEWEST_FIRST)
        .skip(page.skip)
        .limit(page.limit)
        .lean<PostDoc[]>(),
    );
  }
  return presentPosts(posts, viewerId, opts);
}

/** The posts a profile lists: the user's visible posts synced to the profile, newest first. */
export async function listProfilePosts(
  userId: number,
  viewerId: number,
  reads: PostReads,
): Promise<PostView[]> {
  const posts = await Post.find({
    authorId: userId,
    syncToProfile: true,
    deletedAt: null,
  })
    .sort(NEWEST_FIRST)
    .limit(PROFILE_POSTS_LIMIT)
    .lean<PostDoc[]>();
  return presentPosts(posts, viewerId, reads);
}
