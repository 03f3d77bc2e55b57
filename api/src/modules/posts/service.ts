import { trusted } from 'mongoose';
import type {
  CommentPage,
  Comment as CommentView,
  CreateCommentRequest,
  CreatePostRequest,
  FeedQuery,
  Post as PostView,
  PostDetail,
  RepostRequest,
} from '@campus/contracts';
import { STREAM_POSTS_MAX_COUNT, type FeedTab } from '@campus/contracts';
import type { DomainEvent } from '../../domain-events';
import type { AuthUser } from '../../platform/auth';
import { badRequest, forbidden, HttpError, notFound } from '../../platform/errors';
import { countPerDay } from '../../platform/per-day';
import { startOfDayIn } from '../../platform/time';
import type { CommentCursor, CommentReads, CommentService } from '../comments/service';
import type { Transactions } from '../../platform/transactions';
import type { CounterService } from '../counters/service';
import type { FollowService } from '../follows/service';
import { countedLikes, type LikeResult, type LikeService } from '../likes/service';
import type { NotificationService } from '../notifications/service';
import type { RepostService } from '../reposts/service';
import type { HeadQuery } from './feed-heads';
import type { TopEntry, TopQuery } from './top-posts';
import type { PostDoc, PostModel } from './model';
import { findOneBatch } from '../../platform/one-batch';
import { postPolicy } from './policy';
import { presentNewPost, presentPosts, presentPostsJson, type PostReads } from './presenters';

export const POST_NOT_FOUND = 'Post not found';
export const NOT_REPOSTED = 'You have not reposted this post';
export const QUOTED_REPOST = 'Your repost of this post has a quote: delete it as a post';
const PROFILE_POSTS_LIMIT = 100;

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/**
 * What every reader may see: not deleted, and not by a suspended author (hidden until they are
 * reactivated). A fresh object each time: mongoose casts filters in place.
 */
function visible() {
  return { deletedAt: null, authorSuspended: trusted({ $ne: true }) };
}
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Followed authors up to which a Following page is one query sorted by merging each author's
 * index range (`followingPage`). MongoDB merges at most 200 index scans for a sort
 * (`internalQueryMaxScansToExplode`), and `deletedAt: null` takes up to two per author; past that
 * it sorts in memory. The embedded server merges any number (planner.ts `mergeScans`).
 */
const SORT_MERGE_AUTHORS = 100;
/** Top Posts' entries (a few fields each) per reply when today's posts are read. */
const TOP_BATCH = 10_000;

/**
 * Midnight of today in a time zone, worked out once per day: the time zone arithmetic
 * (`startOfDayIn`) cost more than the rest of a cached Top Posts page. Kept with the next
 * midnight (26 h after this one lies in the next day whether it has 23, 24 or 25 hours).
 */
function dayStarts() {
  const kept = new Map<string, { from: number; until: number; start: Date }>();
  return (timezone: string, now: Date = new Date()): Date => {
    const at = now.getTime();
    const day = kept.get(timezone);
    if (day && at >= day.from && at < day.until) return day.start;
    const start = startOfDayIn(timezone, now);
    const until = startOfDayIn(timezone, new Date(start.getTime() + 26 * 60 * 60 * 1000));
    kept.set(timezone, { from: start.getTime(), until: until.getTime(), start });
    return start;
  };
}

/** The event of a post just stored. */
function postCreated(
  post: Pick<PostDoc, '_id' | 'authorId' | 'createdAt' | 'isJdTagged' | 'originalPostId'>,
): DomainEvent {
  return {
    type: 'post.created',
    postId: post._id,
    authorId: post.authorId,
    createdAt: post.createdAt,
    isJdTagged: post.isJdTagged,
    originalPostId: post.originalPostId ?? null,
  };
}

export interface FeedOptions extends PostReads {
  timezone: string;
  now?: Date;
}

export interface PostServiceDeps {
  models: { Post: PostModel };
  /** A write, the counts it moves and its events in one transaction (platform/transactions.ts). */
  writes: Transactions<DomainEvent>;
  comments: CommentService;
  counters: CounterService;
  follows: FollowService;
  likes: LikeService;
  notifications: NotificationService;
  reposts: RepostService;
}

export function createPostService({
  models: { Post },
  writes: { transaction, publish },
  comments,
  counters,
  follows,
  likes,
  notifications,
  reposts,
}: PostServiceDeps) {
  const { createComment, listComments } = comments;
  const { nextId } = counters;
  const { followedIds } = follows;
  const { toggleLike } = likes;
  const { notify } = notifications;
  const { carriesRepost, findRepost, recordRepost, withdrawRepost } = reposts;
  const startOfToday = dayStarts();

  /**
   * A page of visible posts matching `filter`, newest first, in one command (`findOneBatch`):
   * the stored documents as they are (what `lean()` gives) without a mongoose query to build and
   * cast (the filter is made here of numbers, dates and booleans). What every feed page costs
   * when it is not cached.
   */
  function newestVisible(
    filter: Record<string, unknown>,
    page: { skip?: number; limit: number },
  ): Promise<PostDoc[]> {
    return findOneBatch<PostDoc>(Post, {
      filter: { ...filter, deletedAt: null, authorSuspended: { $ne: true } },
      sort: NEWEST_FIRST,
      skip: page.skip ?? 0,
      limit: page.limit,
    });
  }

  /** Whether the post exists and is not deleted. */
  async function isPostVisible(id: number): Promise<boolean> {
    return (await Post.exists({ _id: id, ...visible() })) !== null;
  }

  /**
   * A visible post (not deleted, author not suspended), or 404. `includeHidden`: a suspended
   * author's post too (deleting it: only moderation can, the author's tokens being refused).
   */
  async function findVisiblePost(id: number, { includeHidden = false } = {}): Promise<PostDoc> {
    const post = await Post.findOne(
      includeHidden ? { _id: id, deletedAt: null } : { _id: id, ...visible() },
    ).lean<PostDoc>();
    if (!post) throw notFound(POST_NOT_FOUND);
    return post;
  }

  /**
   * A visible post for a write about it (a like, a comment), or 404: through the feed's posts,
   * which hold most posts being liked or commented (a write forgets the post it changes), else
   * one read. The write itself is what decides: a post deleted meanwhile fails or is counted
   * as with a read here.
   */
  async function visiblePostForWrite(id: number, reads: PostReads | undefined): Promise<PostDoc> {
    if (!reads) return findVisiblePost(id);
    const post = (await reads.feed.postsById([id])).get(id);
    if (!post || post.deletedAt != null || post.authorSuspended === true)
      throw notFound(POST_NOT_FOUND);
    return post;
  }

  async function createPost(
    author: AuthUser,
    input: CreatePostRequest,
    reads: PostReads,
  ): Promise<PostView> {
    const id = await nextId('posts');
    const post = await transaction(async () => {
      const created = (
        await Post.create({
          _id: id,
          authorId: author.id,
          content: input.content,
          syncToProfile: input.syncToProfile ?? true,
          isJdTagged: input.isJdTagged ?? false,
        })
      ).toObject();
      publish(postCreated(created));
      return created;
    });
    // A post just written quotes nothing and is neither liked nor reposted by anyone yet: only
    // its author is read (cached), never the viewer's flags.
    return presentNewPost(post, author.id, reads);
  }

  async function getPostDetail(
    id: number,
    viewerId: number,
    reads: PostReads & CommentReads,
  ): Promise<PostDetail> {
    // Through the feed's post cache (forgotten on every write to the post), like feed pages.
    const post = (await reads.feed.postsById([id])).get(id);
    if (!post || post.deletedAt != null || post.authorSuspended === true)
      throw notFound(POST_NOT_FOUND);
    const [[view], page] = await Promise.all([
      presentPosts([post], viewerId, reads),
      listComments(id, viewerId, reads),
    ]);
    return { ...view!, comments: page.comments, commentsNextCursor: page.nextCursor };
  }

  /** The page of a visible post's comments after `cursor` (the detail holds the first). */
  async function listPostComments(
    id: number,
    viewerId: number,
    cursor: CommentCursor | undefined,
    reads: PostReads & CommentReads,
  ): Promise<CommentPage> {
    const post = (await reads.feed.postsById([id])).get(id);
    if (!post || post.deletedAt != null || post.authorSuspended === true)
      throw notFound(POST_NOT_FOUND);
    return listComments(id, viewerId, reads, { cursor });
  }

  /**
   * Soft-deletes the actor's own post; deleting a plain or quoted repost withdraws it from the
   * original's count, in the same transaction.
   */
  async function deletePost(actor: AuthUser, id: number): Promise<void> {
    const post = await findVisiblePost(id, { includeHidden: true });
    if (!postPolicy.canDelete(actor, post)) throw forbidden('You can only delete your own posts');
    // A repost (plain or quoted) counts in its original's repostsCount while its record exists.
    const originalId =
      post.originalPostId !== null && post.sharedCommentId === null && (await carriesRepost(id))
        ? post.originalPostId
        : null;
    await transaction(
      async () => {
        // The original's count first: the document concurrent reposts contend for (likes/service.ts).
        if (originalId !== null) {
          await Post.updateOne({ _id: originalId }, { $inc: { repostsCount: -1 } });
        }
        const marked = await Post.updateOne(
          { _id: id, deletedAt: null },
          { $set: { deletedAt: new Date() } },
        );
        if (marked.modifiedCount === 0) throw notFound(POST_NOT_FOUND); // deleted concurrently
        publish({ type: 'post.deleted', postId: id, authorId: post.authorId });
        // The record goes only with its post (here or undoRepost, which mark the post first).
        if (originalId !== null) {
          if (!(await withdrawRepost(id))) throw notFound(POST_NOT_FOUND);
          publish({
            type: 'post.unreposted',
            postId: originalId,
            userId: post.authorId,
            repostPostId: id,
          });
        }
      },
      originalId === null ? undefined : `posts:${originalId}`,
    );
  }

  /**
   * Reposts a post, with an optional quote. A user reposts a post at most once (409 after that,
   * until they delete their repost); a repost cannot itself be reposted (400). The repost record,
   * the repost post and the original's count are written in one transaction.
   */
  async function repost(
    actor: AuthUser,
    id: number,
    input: RepostRequest,
    reads: PostReads,
  ): Promise<PostView> {
    const original = await findVisiblePost(id);
    if (!postPolicy.canRepost(original)) throw badRequest('A repost cannot be reposted');
    const comment = input.comment ? input.comment : null;
    const created = await transaction(async () => {
      // The count first: the document concurrent reposts contend for (likes/service.ts).
      await Post.updateOne({ _id: id }, { $inc: { repostsCount: 1 } });
      const repostPostId = await nextId('posts');
      await recordRepost(actor.id, id, repostPostId); // a second repost: 409, all rolled back
      const doc = (
        await Post.create({
          _id: repostPostId,
          authorId: actor.id,
          content: '',
          originalPostId: id,
          repostComment: comment,
        })
      ).toObject();
      publish(postCreated(doc), {
        type: 'post.reposted',
        postId: id,
        userId: actor.id,
        repostPostId,
      });
      if (original.authorId !== actor.id) {
        await notify('repost', original.authorId, { actorId: actor.id, postId: id });
      }
      return doc;
    }, `posts:${id}`);
    const [view] = await presentPosts([created], actor.id, reads);
    return view!;
  }

  /**
   * Undoes the actor's plain (unquoted) repost of post `id`: the repost post is deleted (soft, as
   * `deletePost`), the repost record removed and the original's count moved back, in one
   * transaction. 404 when the post does not exist, when the actor has not reposted it, or when
   * their repost has a quote (a post of its own, deleted as one). Answers the original's count.
   */
  async function undoRepost(
    actor: AuthUser,
    id: number,
  ): Promise<{ postId: number; repostPostId: number; reposted: false; repostsCount: number }> {
    if (!(await Post.exists({ _id: id }))) throw notFound(POST_NOT_FOUND);
    return transaction(async () => {
      // The count first: the document concurrent reposts contend for (likes/service.ts); a
      // refusal below rolls it back.
      const after = await Post.findOneAndUpdate(
        { _id: id },
        { $inc: { repostsCount: -1 } },
        { returnDocument: 'after', projection: { repostsCount: 1 } },
      ).lean();
      const record = await findRepost(actor.id, id);
      const carrier = record
        ? await Post.findOne(
            { _id: record.repostPostId, deletedAt: null },
            { repostComment: 1 },
          ).lean()
        : null;
      if (!record || !carrier) throw notFound(NOT_REPOSTED);
      if (carrier.repostComment !== null) throw notFound(QUOTED_REPOST);
      await Post.updateOne({ _id: carrier._id }, { $set: { deletedAt: new Date() } });
      await withdrawRepost(carrier._id);
      publish(
        { type: 'post.deleted', postId: carrier._id, authorId: actor.id },
        { type: 'post.unreposted', postId: id, userId: actor.id, repostPostId: carrier._id },
      );
      return {
        postId: id,
        repostPostId: carrier._id,
        reposted: false as const,
        repostsCount: after?.repostsCount ?? 0,
      };
    }, `posts:${id}`);
  }

  /**
   * The newest posts of `authors`, one page. For up to SORT_MERGE_AUTHORS authors one query: the
   * index on (authorId, deletedAt, createdAt, _id) holds each author's posts newest first, and the
   * database merges those ranges, reading about a page of keys. Past that, MongoDB sorts every
   * post of every followed author instead (a cost as large as all they ever wrote), so the page is
   * first looked for among recent posts (a day per 20 posts the page reaches down to: page 1
   * looks at the last day). A full page found there is exactly the page (every newer post is in
   * the window); otherwise the authors post little, and reading all their posts is cheap.
   */
  async function followingPage(
    authors: number[],
    page: { skip: number; limit: number },
    now: Date,
  ): Promise<PostDoc[]> {
    const query = (since: Date | undefined) =>
      newestVisible(
        { authorId: { $in: authors }, ...(since ? { createdAt: { $gte: since } } : {}) },
        page,
      );
    if (authors.length <= SORT_MERGE_AUTHORS) return query(undefined);
    const days = Math.ceil((page.skip + page.limit) / 20);
    const recent = await query(new Date(now.getTime() - days * DAY_MS));
    return recent.length === page.limit ? recent : query(undefined);
  }

  /** One page of a feed tab, newest first (Top Posts: today's, most engaged first). */
  async function listFeed(
    viewerId: number,
    query: FeedQuery,
    opts: FeedOptions,
  ): Promise<PostView[]> {
    return presentPosts(await feedPosts(viewerId, query, opts), viewerId, opts);
  }

  /** `listFeed` as the bytes of the JSON the client receives (what `GET /api/posts` sends). */
  async function listFeedJson(
    viewerId: number,
    query: FeedQuery,
    opts: FeedOptions,
  ): Promise<Buffer> {
    const { posts, ids } = await feedPage(viewerId, query, opts);
    // `ids`: the cached page's own id list, with which the page's JSON is kept.
    return presentPostsJson(posts, viewerId, opts, ids);
  }

  /** The stored posts of one page of a feed tab. */
  async function feedPosts(
    viewerId: number,
    query: FeedQuery,
    opts: FeedOptions,
  ): Promise<PostDoc[]> {
    return (await feedPage(viewerId, query, opts)).posts;
  }

  /** A tab's newest visible posts (For You, or JD), created at or after `since` when given. */
  function newest(filter: { isJdTagged?: true }): HeadQuery {
    return (since, limit) =>
      newestVisible({ ...filter, ...(since ? { createdAt: { $gte: since } } : {}) }, { limit });
  }
  const newestPosts = newest({});
  /**
   * Today's visible posts, all of them, with only what orders them (what Top Posts ranks,
   * feed-cache.ts), in one reply where they fit (not a first batch of 101 and a `getMore`).
   */
  const todaysPosts: TopQuery = (since) =>
    Post.collection
      .find<TopEntry>(
        { deletedAt: null, authorSuspended: { $ne: true }, createdAt: { $gte: since } },
        {
          projection: { createdAt: 1, likesCount: 1, commentsCount: 1, repostsCount: 1 },
          batchSize: TOP_BATCH,
        },
      )
      .toArray();
  const newestJd = newest({ isJdTagged: true });

  /** One page of a feed tab: its stored posts, and the id list the cache keeps for it. */
  async function feedPage(
    viewerId: number,
    query: FeedQuery,
    opts: FeedOptions,
  ): Promise<{ posts: PostDoc[]; ids: readonly number[] }> {
    const page = { skip: query.offset, limit: query.limit };
    const at = `${page.skip}:${page.limit}`;
    if (query.tab === 'following') {
      return opts.feed.cachedPage('following', `${viewerId}:${at}`, async () => {
        // The caller's own posts appear too, so a new post shows up where its author is looking.
        const authors = await opts.feed.followedBy(viewerId, () => followedIds(viewerId));
        opts.feed.followingOf(viewerId, authors);
        // Members who follow many active authors find their page among the newest posts of all.
        return (
          (await opts.feed.headPageOf(authors, page, newestPosts)) ??
          followingPage([...authors], page, opts.now ?? new Date())
        );
      });
    } else if (query.tab === 'jd') {
      return (
        (await opts.feed.heads.page('jd', page, newestJd)) ??
        opts.feed.cachedPage('shared', `jd:${at}`, () => newestVisible({ isJdTagged: true }, page))
      );
    } else if (query.topFilter === 'true') {
      const today = startOfToday(opts.timezone, opts.now);
      const top = await opts.feed.top.page(today, page, todaysPosts);
      if (top) return top;
      // Nothing kept (READ_CACHE_MS=0), or the ranking was forgotten while it was read.
      const posts = await Post.aggregate<PostDoc>([
        {
          $match: { deletedAt: null, authorSuspended: { $ne: true }, createdAt: { $gte: today } },
        },
        { $addFields: { score: { $add: ['$likesCount', '$commentsCount', '$repostsCount'] } } },
        { $sort: { score: -1, createdAt: -1, _id: -1 } },
        { $skip: page.skip },
        { $limit: page.limit },
        { $project: { score: 0 } },
      ]);
      return { posts, ids: posts.map((p) => p._id) };
    }
    return (
      (await opts.feed.heads.page('all', page, newestPosts)) ??
      opts.feed.cachedPage('shared', `all:${at}`, () => newestVisible({}, page))
    );
  }

  /** The posts a profile lists: the user's visible posts synced to the profile, newest first. */
  async function listProfilePosts(
    userId: number,
    viewerId: number,
    reads: PostReads,
  ): Promise<PostView[]> {
    const posts = await Post.find({ authorId: userId, syncToProfile: true, ...visible() })
      .sort(NEWEST_FIRST)
      .limit(PROFILE_POSTS_LIMIT)
      .lean<PostDoc[]>();
    return presentPosts(posts, viewerId, reads);
  }

  /**
   * Likes or unlikes a visible post; the first like by a member notifies the author once, in the
   * like's transaction.
   */
  async function togglePostLike(
    userId: number,
    postId: number,
    reads?: PostReads,
  ): Promise<LikeResult> {
    const post = await visiblePostForWrite(postId, reads);
    const counter = countedLikes(Post, postId, {
      event: (liked) => ({ type: liked ? 'post.liked' : 'post.unliked', postId, userId }),
      afterLike: async () => {
        if (post.authorId !== userId)
          await notify('like', post.authorId, { actorId: userId, postId });
      },
    });
    const result = await toggleLike(userId, { kind: 'post', id: postId }, counter);
    return { liked: result.liked, likesCount: result.likesCount };
  }

  /**
   * Comments on a visible post (or replies under it). With `syncToTimeline` the comment is also
   * published on the commenter's timeline as a quote of the post: a post with `originalPostId` (the
   * post, or its original when the post is a repost) and the comment as `repostComment`. Notifies
   * the author of the comment replied to and the post's author, each once and never the commenter.
   */
  async function addComment(
    actor: AuthUser,
    postId: number,
    input: CreateCommentRequest,
    reads: PostReads,
  ): Promise<CommentView> {
    const post = await visiblePostForWrite(postId, reads);
    // The comment, the post's count and the shared copy: all or nothing.
    // The comment, the post's count, the shared copy and the notifications: all or nothing.
    const { comment } = await transaction(async () => {
      // The count first: the document concurrent comments contend for (likes/service.ts); a
      // missing parent comment (404) rolls it back.
      await Post.updateOne({ _id: postId }, { $inc: { commentsCount: 1 } });
      const created = await createComment(actor.id, postId, input, reads);
      if (input.syncToTimeline) {
        const shared = (
          await Post.create({
            _id: await nextId('posts'),
            authorId: actor.id,
            content: '',
            originalPostId: post.originalPostId ?? postId,
            repostComment: created.comment.content,
            sharedCommentId: created.comment.id,
          })
        ).toObject();
        publish(postCreated(shared));
      }
      const commentId = created.comment.id;
      const notified = new Set<number>([actor.id]);
      const { repliedToAuthorId } = created;
      if (repliedToAuthorId !== null && !notified.has(repliedToAuthorId)) {
        notified.add(repliedToAuthorId);
        await notify('reply', repliedToAuthorId, { actorId: actor.id, postId, commentId });
      }
      if (!notified.has(post.authorId)) {
        await notify('comment', post.authorId, { actorId: actor.id, postId, commentId });
      }
      return created;
    }, `posts:${postId}`);
    return comment;
  }

  /** Previews of visible posts by id (for notifications): a repost shows its quote. */
  async function postPreviews(
    ids: number[],
  ): Promise<Map<number, { id: number; content: string }>> {
    const posts = await Post.find(
      { _id: trusted({ $in: ids }), ...visible() },
      { content: 1, repostComment: 1 },
    ).lean();
    return new Map(
      posts.map((p) => [p._id, { id: p._id, content: p.content || p.repostComment || '' }]),
    );
  }

  /**
   * Moderation (admin module): hides every post of a suspended author from every reader, or shows
   * them again on reactivation; in the suspension's transaction, told by `account.suspended` and
   * `account.reactivated`.
   */
  async function setAuthorHidden(authorId: number, hidden: boolean): Promise<void> {
    await Post.updateMany(
      { authorId },
      hidden ? { $set: { authorSuspended: true } } : { $unset: { authorSuspended: 1 } },
    );
  }

  /** Posts as the administrator's report queue shows them (deleted and hidden ones included). */
  async function postsForModeration(
    ids: number[],
  ): Promise<Map<number, { authorId: number; content: string; deleted: boolean }>> {
    if (ids.length === 0) return new Map();
    const posts = await Post.find(
      { _id: trusted({ $in: ids }) },
      { authorId: 1, content: 1, repostComment: 1, deletedAt: 1 },
    ).lean();
    return new Map(
      posts.map((p) => [
        p._id,
        {
          authorId: p.authorId,
          content: p.content || p.repostComment || '',
          deleted: p.deletedAt !== null,
        },
      ]),
    );
  }

  /**
   * Moderation: soft-deletes a post the administrator removed after reports, through the author's
   * own delete path (the same counts move). False when it was already deleted.
   */
  async function removePostByModeration(id: number): Promise<boolean> {
    const post = await Post.findOne({ _id: id, deletedAt: null }, { authorId: 1 }).lean();
    if (!post) return false;
    try {
      await deletePost({ id: post.authorId, name: '', email: '', roles: ['member'] }, id);
    } catch (err) {
      if (err instanceof HttpError && err.status === 404) return false; // deleted meanwhile
      throw err;
    }
    return true;
  }

  /** Posts sharing these comments on their authors' timelines (removed with the comments). */
  async function postIdsSharingComments(commentIds: number[]): Promise<number[]> {
    if (commentIds.length === 0) return [];
    const posts = await Post.find(
      { sharedCommentId: trusted({ $in: commentIds }), deletedAt: null },
      { _id: 1 },
    ).lean();
    return posts.map((p) => p._id);
  }

  /** Counts of visible posts for the analytics dashboard. */
  const postCounts = {
    visible: (): Promise<number> => Post.countDocuments({ deletedAt: null }),
    visibleSince: (since: Date): Promise<number> =>
      Post.countDocuments({ deletedAt: null, createdAt: trusted({ $gte: since }) }),
    visiblePerDay: (since: Date, timezone: string) =>
      countPerDay(Post, { deletedAt: null }, since, timezone),
  };

  /** Every post of an author, deleted ones included (account deletion). */
  async function postIdsByAuthor(authorId: number): Promise<number[]> {
    const posts = await Post.find({ authorId }, { _id: 1 }).lean();
    return posts.map((p) => p._id);
  }

  /** Removes posts for good (account deletion; a member's own delete is the soft `deletePost`). */
  async function removePosts(ids: number[]): Promise<void> {
    if (ids.length > 0) await Post.deleteMany({ _id: trusted({ $in: ids }) });
  }

  /**
   * Sets these posts' likes, comments and reposts counts to what their sources hold, in the
   * caller's transaction (`post.recounted`).
   */
  async function recountPosts(postIds: number[]): Promise<void> {
    const ids = [...new Set(postIds)];
    if (ids.length === 0) return;
    publish({ type: 'post.recounted', postIds: ids });
    const [likeCounts, commentCounts, repostCounts] = await Promise.all([
      likes.countLikesOn('post', ids),
      comments.countCommentsOn(ids),
      reposts.countRepostsOn(ids),
    ]);
    await Post.bulkWrite(
      ids.map((id) => ({
        updateOne: {
          filter: { _id: id },
          update: {
            $set: {
              likesCount: likeCounts.get(id) ?? 0,
              commentsCount: commentCounts.get(id) ?? 0,
              repostsCount: repostCounts.get(id) ?? 0,
            },
          },
        },
      })),
    );
  }

  /**
   * The ids of the visible posts by others that `tab` shows after `sinceId` (post ids are
   * sequential), at most `STREAM_POSTS_MAX_COUNT`: the live stream's new-posts count.
   */
  async function newPostIds(
    tab: FeedTab,
    sinceId: number,
    viewerId: number,
    followed: number[],
  ): Promise<number[]> {
    const authors =
      tab === 'following'
        ? { authorId: trusted({ $in: followed.filter((id) => id !== viewerId) }) }
        : { authorId: trusted({ $ne: viewerId }) };
    const posts = await Post.find(
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

  return {
    newPostIds,
    postIdsByAuthor,
    removePosts,
    recountPosts,
    isPostVisible,
    createPost,
    getPostDetail,
    listPostComments,
    deletePost,
    repost,
    undoRepost,
    listFeed,
    listFeedJson,
    listProfilePosts,
    togglePostLike,
    addComment,
    postPreviews,
    postCounts,
    setAuthorHidden,
    postsForModeration,
    removePostByModeration,
    postIdsSharingComments,
  };
}

export type PostService = ReturnType<typeof createPostService>;
