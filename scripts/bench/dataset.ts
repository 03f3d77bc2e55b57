/**
 * The benchmark dataset, generated in memory and deterministically (a seeded PRNG): users with
 * power-law activity and popularity, follows with a power-law in-degree, posts over 90 days
 * (a share of them reposts), likes and comments concentrated on a few viral posts, and the
 * notifications those cause. Every denormalized count is computed from the generated documents,
 * so a recount finds nothing to correct.
 */
import type { CommentDoc } from '../../api/src/modules/comments/model';
import type { FollowDoc } from '../../api/src/modules/follows/model';
import type { LikeDoc } from '../../api/src/modules/likes/model';
import type { NotificationDoc } from '../../api/src/modules/notifications/model';
import type { PostDoc } from '../../api/src/modules/posts/model';
import { tagsOfPost } from '../../api/src/modules/posts/post-tags';
import type { RepostDoc } from '../../api/src/modules/reposts/model';
import type { UserDoc } from '../../api/src/modules/users/model';

export interface DatasetSize {
  users: number;
  posts: number;
  likes: number;
  comments: number;
  days: number;
  /** Share of posts that are reposts (plain or quoted). */
  repostShare: number;
  /** Share of likes that are likes of comments. */
  commentLikeShare: number;
}

export const FULL_SIZE: DatasetSize = {
  users: 5_000,
  posts: 100_000,
  likes: 1_000_000,
  comments: 200_000,
  days: 90,
  repostShare: 0.06,
  commentLikeShare: 0.1,
};

export interface Dataset {
  users: UserDoc[];
  follows: FollowDoc[];
  posts: PostDoc[];
  reposts: RepostDoc[];
  likes: LikeDoc[];
  comments: CommentDoc[];
  notifications: NotificationDoc[];
}

const DAY = 86_400_000;

/** mulberry32: small, fast, seeded. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Samples indexes 0..n-1 with the given weights (cumulative table, binary search). */
function weighted(weights: Float64Array, random: () => number): () => number {
  const cumulative = new Float64Array(weights.length);
  let sum = 0;
  for (let i = 0; i < weights.length; i++) cumulative[i] = sum += weights[i]!;
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Zipf-like weights 1/rank^s, assigned to items in a random order (popularity is not the id). */
function zipfWeights(n: number, s: number, random: () => number): Float64Array {
  const ranks = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [ranks[i], ranks[j]] = [ranks[j]!, ranks[i]!];
  }
  const weights = new Float64Array(n);
  for (let i = 0; i < n; i++) weights[i] = 1 / (ranks[i]! + 1) ** s;
  return weights;
}

const FIRST = [
  'Ada',
  'Ben',
  'Chiara',
  'Daniel',
  'Elena',
  'Farid',
  'Grace',
  'Hugo',
  'Ines',
  'Jonas',
  'Keiko',
  'Liam',
  'Maya',
  'Nikolai',
  'Olivia',
  'Pedro',
  'Qian',
  'Rosa',
  'Samuel',
  'Tara',
  'Umar',
  'Valentina',
  'William',
  'Yara',
];
const LAST = [
  'Okafor',
  'Larsen',
  'Rossi',
  'Kim',
  'Petrova',
  'Haddad',
  'Chen',
  'Martin',
  'Duarte',
  'Weber',
  'Tanaka',
  "O'Brien",
  'Patel',
  'Ivanov',
  'Brown',
  'Alves',
  'Zhou',
  'Jimenez',
  'Mensah',
  'Singh',
  'Farouk',
  'Greco',
  'Scott',
];
/** The hashtags of the dataset's posts, the first the most used (the tag page row reads it). */
export const BENCH_TAGS = [
  'campuslife',
  'exams',
  'hackathon',
  'careers',
  'research',
  'campuslife',
  'internship',
  'library',
  'campuslife',
  'football',
];

const WORDS =
  'the study group meets in the library tonight anyone want to join lecture notes for algorithms exam next week internship at a startup campus cafe coffee research lab seminar on machine learning football match saturday hackathon team looking for a designer thesis deadline job posting junior developer remote alumni meetup career fair photos from the trip great talk today who is going'.split(
    ' ',
  );

function sentence(random: () => number, minWords: number, maxWords: number): string {
  const n = minWords + Math.floor(random() * (maxWords - minWords + 1));
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(WORDS[Math.floor(random() * WORDS.length)]!);
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1) + '.';
}

export function generateDataset(options: {
  size: DatasetSize;
  adminUserId: number;
  passwordHash: string;
  now: Date;
  seed?: number;
}): Dataset {
  const { size, adminUserId, passwordHash } = options;
  const now = options.now.getTime();
  const random = prng(options.seed ?? 20261122);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;

  // Users 1..N; the admin is one of them (ADMIN_USER_ID).
  const users: UserDoc[] = [];
  for (let id = 1; id <= size.users; id++) {
    const admin = id === adminUserId;
    const recent = random() < 0.15;
    const createdAt = new Date(now - (recent ? random() * 30 : 30 + random() * 700) * DAY);
    const activity = random();
    const lastActiveAt =
      activity < 0.15
        ? new Date(now - random() * DAY)
        : activity < 0.6
          ? new Date(now - random() * 30 * DAY)
          : activity < 0.9
            ? new Date(now - (30 + random() * 300) * DAY)
            : null;
    users.push({
      _id: id,
      name: admin ? 'Campus Admin' : `${pick(FIRST)} ${pick(LAST)}`,
      // Not the demo admin's address: the API (production mode) refuses to start beside a demo account.
      email: admin ? 'bench.admin@campus.edu' : `user${id}@campus.edu`,
      password: passwordHash,
      avatarUrl: null,
      bio: random() < 0.5 ? sentence(random, 4, 12) : '',
      isVerified: admin || random() < 0.97,
      verificationToken: null,
      passwordResetToken: null,
      passwordResetExpires: null,
      lastPasswordChange: null,
      tokensValidAfter: null,
      lastActiveAt: admin ? new Date(now) : lastActiveAt,
      createdAt,
    });
  }
  const userIndex = (i: number) => i + 1;
  const popularUser = weighted(zipfWeights(size.users, 1.0, random), random);
  const activeUser = weighted(zipfWeights(size.users, 0.8, random), random);

  // Follows: out-degree 8/sqrt(1-r) (median ~11, long tail), targets by popularity.
  const follows: FollowDoc[] = [];
  const followedBy = new Map<number, number[]>();
  for (let follower = 1; follower <= size.users; follower++) {
    const degree =
      follower === adminUserId ? 150 : Math.min(400, Math.floor(8 / Math.sqrt(1 - random())));
    const targets = new Set<number>();
    for (let tries = 0; targets.size < degree && tries < degree * 5; tries++) {
      const target = userIndex(popularUser());
      if (target !== follower) targets.add(target);
    }
    for (const following of targets) {
      follows.push({
        _id: follows.length + 1,
        followerId: follower,
        followingId: following,
        createdAt: new Date(now - random() * 365 * DAY),
      });
      let list = followedBy.get(following);
      if (!list) followedBy.set(following, (list = []));
      list.push(follower);
    }
  }

  // Posts over `days` days, ids in time order; a share of them reposts of earlier originals.
  const times = Array.from({ length: size.posts }, () => now - random() * size.days * DAY).sort(
    (a, b) => a - b,
  );
  const posts: PostDoc[] = [];
  const reposts: RepostDoc[] = [];
  const repostPairs = new Set<number>();
  const virality = new Float64Array(size.posts);
  for (let i = 0; i < size.posts; i++) {
    const id = i + 1;
    const authorId = userIndex(activeUser());
    const post: PostDoc = {
      _id: id,
      authorId,
      content: sentence(random, 6, 40),
      isJdTagged: random() < 0.15,
      syncToProfile: random() < 0.95,
      originalPostId: null,
      repostComment: null,
      sharedCommentId: null,
      likesCount: 0,
      commentsCount: 0,
      repostsCount: 0,
      deletedAt: null,
      createdAt: new Date(times[i]!),
    };
    if (i > 100 && random() < size.repostShare) {
      for (let tries = 0; tries < 10; tries++) {
        const back = 1 + Math.floor(Math.abs(random() + random() + random() - 1.5) * 1500);
        const original = posts[Math.max(0, i - back)]!;
        const pair = authorId * 2 ** 17 + original._id;
        if (original.originalPostId !== null || original.authorId === authorId) continue;
        if (repostPairs.has(pair)) continue;
        repostPairs.add(pair);
        post.content = '';
        post.originalPostId = original._id;
        post.repostComment = random() < 0.4 ? sentence(random, 3, 12) : null;
        original.repostsCount += 1;
        reposts.push({
          _id: reposts.length + 1,
          userId: authorId,
          postId: original._id,
          repostPostId: id,
          createdAt: post.createdAt,
        });
        break;
      }
    }
    // Every fifth post carries a hashtag (issue 40: tag pages, trending), chosen by its id so the
    // random sequence, and with it the rest of the dataset, is the same as without.
    if (post.content && id % 5 === 0)
      post.content += ` #${BENCH_TAGS[(id / 5) % BENCH_TAGS.length]}`;
    // As the model stores them (bench:data inserts through the driver, past the model's hooks).
    post.tags = tagsOfPost(post);
    virality[i] = post.originalPostId === null ? (1 / (1 - random())) ** 1.3 : 0.05;
    posts.push(post);
  }
  const viralPost = weighted(virality, random);
  const after = (t: Date) => new Date(t.getTime() + (now - t.getTime()) * random() ** 4);

  const notifications: NotificationDoc[] = [];
  const notify = (n: Omit<NotificationDoc, '_id' | 'isRead' | 'feedbackId' | 'applicationId'>) => {
    if (n.actorId === n.userId) return;
    notifications.push({
      _id: notifications.length + 1,
      feedbackId: null,
      applicationId: null,
      isRead: now - n.createdAt.getTime() > 2 * DAY,
      ...n,
    });
  };
  for (const r of reposts) {
    const original = posts[r.postId - 1]!;
    notify({
      userId: original.authorId,
      type: 'repost',
      actorId: r.userId,
      postId: r.postId,
      dedupeKey: `repost:${r.postId}:${r.userId}`,
      createdAt: r.createdAt,
    });
  }
  for (const f of follows) {
    notify({
      userId: f.followingId,
      type: 'follow',
      actorId: f.followerId,
      postId: null,
      createdAt: f.createdAt,
    });
  }

  // Comments: on viral posts, a third of them replies to an earlier top-level comment.
  const comments: CommentDoc[] = [];
  const topLevelOf = new Map<number, CommentDoc[]>();
  for (let i = 0; i < size.comments; i++) {
    const post = posts[viralPost()]!;
    const authorId = userIndex(activeUser());
    const threads = topLevelOf.get(post._id);
    const parent = threads && random() < 1 / 3 ? pick(threads) : null;
    const comment: CommentDoc = {
      _id: i + 1,
      postId: post._id,
      authorId,
      parentId: parent?._id ?? null,
      content: sentence(random, 3, 25),
      likesCount: 0,
      createdAt: after(parent?.createdAt ?? post.createdAt),
    };
    comments.push(comment);
    post.commentsCount += 1;
    if (!parent) {
      if (threads) threads.push(comment);
      else topLevelOf.set(post._id, [comment]);
    }
    if (parent && parent.authorId !== authorId) {
      notify({
        userId: parent.authorId,
        type: 'reply',
        actorId: authorId,
        postId: post._id,
        createdAt: comment.createdAt,
      });
    }
    if (post.authorId !== authorId && parent?.authorId !== post.authorId) {
      notify({
        userId: post.authorId,
        type: 'comment',
        actorId: authorId,
        postId: post._id,
        createdAt: comment.createdAt,
      });
    }
  }

  // Likes: of viral posts by active users (one per user and post), then of comments.
  const likes: LikeDoc[] = [];
  const postLikes = Math.round(size.likes * (1 - size.commentLikeShare));
  const liked = new Set<number>();
  while (likes.length < postLikes) {
    const post = posts[viralPost()]!;
    const userId = userIndex(activeUser());
    const key = userId * 2 ** 17 + post._id;
    if (liked.has(key)) continue;
    liked.add(key);
    const createdAt = after(post.createdAt);
    likes.push({ _id: likes.length + 1, userId, postId: post._id, commentId: null, createdAt });
    post.likesCount += 1;
    // Like notifications of the last two weeks (older ones have long been read and cleared).
    if (now - createdAt.getTime() < 14 * DAY) {
      notify({
        userId: post.authorId,
        type: 'like',
        actorId: userId,
        postId: post._id,
        dedupeKey: `like:${post._id}:${userId}`,
        createdAt,
      });
    }
  }
  const likedComments = new Set<number>();
  while (likes.length < size.likes) {
    const comment = comments[Math.floor(random() ** 2 * comments.length)]!;
    const userId = userIndex(activeUser());
    const key = userId * 2 ** 18 + comment._id;
    if (likedComments.has(key)) continue;
    likedComments.add(key);
    likes.push({
      _id: likes.length + 1,
      userId,
      postId: null,
      commentId: comment._id,
      createdAt: after(comment.createdAt),
    });
    comment.likesCount += 1;
  }

  return { users, follows, posts, reposts, likes, comments, notifications };
}
