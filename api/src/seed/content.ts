/**
 * Demo content for every screen and chart, spread over time like a campus that has been live for
 * six months: the members joined over those months (a launch cohort, then a few a month, some in
 * the last days: the growth chart and 'Joined …'); each posts only after joining, more as the
 * campus grows (15 posts in the last hours, for Today's top posts); reposts, comments, replies,
 * likes and follows come after what they are about and after their author joined; each member
 * was last active at their latest action (DAU, MAU). Also reposts with and without quotes, JD
 * posts and the notifications all this causes. Deterministic (a seeded PRNG), and the
 * denormalized counts are computed from the generated likes, comments and reposts, so they agree
 * with a recount.
 */
import type { mongo } from 'mongoose';
import type { CommentDoc } from '../modules/comments/model';
import type { LikeDoc } from '../modules/likes/model';
import type { NotificationDoc } from '../modules/notifications/model';
import { notificationKinds } from '../modules/notifications/registry';
import type { PostDoc } from '../modules/posts/model';
import type { RepostDoc } from '../modules/reposts/model';
import type { AppContext } from '../context';
import { JOBS, prng, REACTIONS, TOPICS } from './texts';

/** A collection of numeric ids, written on directly (past mongoose's immutable createdAt). */
type RawCollection = mongo.Collection<{ _id: number; createdAt: Date; lastActiveAt?: Date | null }>;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** How long the demo campus has been live: the admin joined then, the members after. */
const CAMPUS_AGE_DAYS = 182;
/** Members who joined in the last four weeks, each on a day of their own. */
const RECENT_SIGN_UPS = 10;
/** Posts spread over the last week before today's, so each day of the 7-day chart has some. */
const LAST_WEEK_POSTS = 45;

export interface ContentOptions {
  memberIds: number[];
  adminId: number;
  now?: Date;
  posts?: number;
}

export async function seedDemoContent(
  target: Pick<AppContext, 'models' | 'ids'>,
  options: ContentOptions,
) {
  const { Post, Repost, Comment, Like, Notification, User, Follow } = target.models;
  const reserveIdBlock = (name: string, count: number) => target.ids.reserveIdBlock(name, count);
  const random = prng(2026);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
  const now = options.now?.getTime() ?? Date.now();
  const people = [...options.memberIds, options.adminId];
  const postCount = options.posts ?? 220;

  // Join dates: the admin opened the campus; members joined in id order, a launch cohort of six
  // in the first three weeks, then a few a month, and the newest one every few days over the last
  // four weeks (issue 41: the dashboard's 30-day growth chart shows sign-ups on real days, not
  // one or two), none today.
  const joinedAt = new Map<number, number>([[options.adminId, now - CAMPUS_AGE_DAYS * DAY]]);
  const cohort = Math.min(6, options.memberIds.length);
  const recent = Math.min(RECENT_SIGN_UPS, Math.max(0, options.memberIds.length - cohort - 1));
  const months = options.memberIds.length - cohort - recent;
  options.memberIds.forEach((id, i) => {
    const daysAgo =
      i < cohort
        ? CAMPUS_AGE_DAYS - 1 - (i * 20) / cohort - random() * 2
        : i < cohort + months
          ? 31 + (CAMPUS_AGE_DAYS - 55) * (1 - (i - cohort + 0.5) / months) + random() * 3
          : 27 * (1 - (i - cohort - months) / Math.max(1, recent - 1)) + 1 + random() * 0.5;
    joinedAt.set(id, now - daysAgo * DAY - random() * 12 * HOUR);
  });
  const joined = (userId: number) => joinedAt.get(userId) ?? now - CAMPUS_AGE_DAYS * DAY;

  // How active each member is (DAU, MAU): nearly half (and the admin) act every day, most of the
  // others did something this month but not today, a few have been quiet for over a month.
  // Nobody acts after their `lastPossible` time.
  const lastPossibleAt = new Map<number, number>();
  const daily: number[] = [];
  for (const id of people) {
    const r = random();
    const recent = joined(id) > now - 30 * DAY;
    const until =
      id === options.adminId || r < 0.45
        ? now
        : r < 0.85 || recent
          ? now - DAY - random() * 5 * DAY
          : now - 31 * DAY - random() * 20 * DAY;
    lastPossibleAt.set(id, Math.max(until, joined(id) + 2 * HOUR));
    if (until === now) daily.push(id);
  }
  const lastPossible = (userId: number) => lastPossibleAt.get(userId) ?? now;
  /**
   * When `userId` did something about something made at `t`: after both it and their joining,
   * within `maxMs`, never after they stopped being active; null when they could not have.
   */
  const after = (t: Date | number, userId: number, maxMs: number): Date | null => {
    const from = Math.max(new Date(t).getTime(), joined(userId)) + 60_000;
    const until = Math.min(now, lastPossible(userId));
    return from > until ? null : new Date(Math.min(until, from + random() * maxMs));
  };

  // Posts: each by a member after they joined, skewed to recent weeks (the campus grows); the
  // newest 15 within the last few hours ("today"), by members active today; before them a steady
  // few a day over the last week (issue 41: the 7-day chart shows days, not one spike today).
  const weekFrom = postCount - 15 - Math.min(LAST_WEEK_POSTS, Math.max(0, postCount - 15));
  const drafts = Array.from({ length: postCount }, (_, i) => {
    if (i >= postCount - 15) return { authorId: pick(daily), t: now - random() * 3 * HOUR };
    const lastWeek = i >= weekFrom;
    for (;;) {
      const authorId = pick(people);
      const since = Math.max(joined(authorId) + HOUR, lastWeek ? now - 7 * DAY : 0);
      const until = Math.min(now - 4 * HOUR, lastPossible(authorId));
      if (until <= since) continue;
      const share = lastWeek ? (i - weekFrom + random()) / (postCount - 15 - weekFrom) : null;
      // The last week's posts in order across it (each day gets its share), the rest skewed.
      const t =
        share === null
          ? since + (until - since) * random() ** 0.6
          : now - 7 * DAY + share * (6.5 * DAY);
      if (t >= since && t <= until) return { authorId, t };
    }
  }).sort((a, b) => a.t - b.t);
  const firstPostId = await reserveIdBlock('posts', postCount + 40 + 60);
  let nextPostId = firstPostId;

  const posts: PostDoc[] = drafts.map(({ authorId, t }) => {
    const jd = random() < 0.18;
    return {
      _id: nextPostId++,
      authorId,
      content: jd ? pick(JOBS) : pick(TOPICS),
      isJdTagged: jd,
      syncToProfile: random() > 0.05,
      originalPostId: null,
      repostComment: null,
      sharedCommentId: null,
      likesCount: 0,
      commentsCount: 0,
      repostsCount: 0,
      deletedAt: null,
      createdAt: new Date(t),
    };
  });
  const notifications: Array<Omit<NotificationDoc, '_id'>> = [];
  // Stored as the API stores them (the notification registry decides references and dedupe keys).
  const notifyOf = (
    userId: number,
    type: 'like' | 'comment' | 'reply' | 'repost',
    actorId: number,
    postId: number,
    at: Date,
    commentId = 0,
  ) => {
    if (userId === actorId) return;
    notifications.push({
      userId,
      type,
      ...(type === 'comment' || type === 'reply'
        ? notificationKinds[type].store({ actorId, postId, commentId }, userId)
        : notificationKinds[type].store({ actorId, postId }, userId)),
      // Older than two days: already seen.
      isRead: now - at.getTime() > 2 * DAY,
      createdAt: at,
    });
  };

  // Reposts, half of them quoted.
  /** Each repost, with the original it reposts (ids are given below). */
  const repostOf = new Map<PostDoc, PostDoc>();
  const reposted = new Set<string>();
  for (let i = 0; i < 40; i++) {
    const original = pick(posts);
    const userId = pick(people);
    const key = `${userId}:${original._id}`;
    const at = after(original.createdAt, userId, 2 * DAY);
    if (userId === original.authorId || reposted.has(key) || !at) continue;
    reposted.add(key);
    const repost: PostDoc = {
      ...original,
      authorId: userId,
      content: '',
      isJdTagged: false,
      syncToProfile: true,
      originalPostId: original._id,
      repostComment: random() < 0.5 ? pick(REACTIONS) : null,
      likesCount: 0,
      commentsCount: 0,
      repostsCount: 0,
      createdAt: at,
    };
    repostOf.set(repost, original);
  }
  // Every post, original or repost, is numbered in time order, as the API numbers the posts it
  // creates: the feed's new-posts pill reads a higher id as a newer post.
  posts.push(...repostOf.keys());
  posts.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a._id - b._id);
  posts.forEach((post, i) => (post._id = firstPostId + i));
  const reposts: Array<Omit<RepostDoc, '_id'>> = [];
  // The reposts' records and notifications in time order too.
  for (const [repost, original] of [...repostOf].sort(([a], [b]) => a._id - b._id)) {
    repost.originalPostId = original._id;
    const { authorId: userId, createdAt: at } = repost;
    reposts.push({ userId, postId: original._id, repostPostId: repost._id, createdAt: at });
    original.repostsCount += 1;
    notifyOf(original.authorId, 'repost', userId, original._id, at);
  }

  // Comments (a third of them replies to an earlier top-level comment on the same post).
  const originals = posts.filter((p) => p.originalPostId === null);
  const comments: CommentDoc[] = [];
  const topLevelByPost = new Map<number, CommentDoc[]>();
  const firstCommentId = await reserveIdBlock('comments', 320);
  for (let i = 0; i < 320; i++) {
    const post = pick(originals);
    const candidates = topLevelByPost.get(post._id) ?? [];
    const parent = candidates.length && random() < 0.35 ? pick(candidates) : null;
    // Someone who was around then (a few tries; most members are).
    let authorId = pick(people);
    let at = after(parent?.createdAt ?? post.createdAt, authorId, DAY);
    for (let tries = 0; !at && tries < 5; tries++) {
      authorId = pick(people);
      at = after(parent?.createdAt ?? post.createdAt, authorId, DAY);
    }
    if (!at) continue;
    const comment: CommentDoc = {
      _id: firstCommentId + i,
      postId: post._id,
      authorId,
      parentId: parent?._id ?? null,
      content: pick(REACTIONS),
      likesCount: 0,
      createdAt: at,
    };
    comments.push(comment);
    if (!parent) topLevelByPost.set(post._id, [...candidates, comment]);
    post.commentsCount += 1;
    if (parent) notifyOf(parent.authorId, 'reply', authorId, post._id, at, comment._id);
    if (!parent || parent.authorId !== post.authorId)
      notifyOf(post.authorId, 'comment', authorId, post._id, at, comment._id);
  }

  // Likes: a skewed number per post, and some on comments.
  const likes: Array<Omit<LikeDoc, '_id'>> = [];
  for (const post of posts) {
    const likers = new Set<number>();
    const wanted = Math.floor(random() ** 2 * 14);
    for (let k = 0; k < wanted; k++) likers.add(pick(people));
    for (const userId of likers) {
      const at = after(post.createdAt, userId, DAY);
      if (!at) continue;
      likes.push({ userId, postId: post._id, commentId: null, createdAt: at });
      post.likesCount += 1;
      notifyOf(post.authorId, 'like', userId, post._id, at);
    }
  }
  for (const comment of comments) {
    if (random() < 0.6) continue;
    const userId = pick(people);
    const at = after(comment.createdAt, userId, DAY);
    if (!at) continue;
    likes.push({ userId, postId: null, commentId: comment._id, createdAt: at });
    comment.likesCount += 1;
  }

  // Follows (made by the seed before the content): after both members joined, within a week.
  const follows = await Follow.find({}, { followerId: 1, followingId: 1 }).lean();
  const followedAt = follows.map((f) => ({
    _id: f._id,
    // A member quiet since joining still followed a few people when they joined.
    at:
      after(joined(f.followingId), f.followerId, 7 * DAY) ??
      new Date(Math.max(joined(f.followingId), joined(f.followerId)) + 60_000),
  }));

  // Each member was last active at their latest post, comment, like or follow.
  const lastActive = new Map<number, number>();
  const active = (userId: number, at: Date) =>
    lastActive.set(userId, Math.max(lastActive.get(userId) ?? 0, at.getTime()));
  for (const p of posts) active(p.authorId, p.createdAt);
  for (const c of comments) active(c.authorId, c.createdAt);
  for (const l of likes) active(l.userId, l.createdAt);
  follows.forEach((f, i) => active(f.followerId, followedAt[i]!.at));

  const firstRepostId = await reserveIdBlock('reposts', Math.max(reposts.length, 1));
  const firstLikeId = await reserveIdBlock('likes', likes.length);
  const firstNotificationId = await reserveIdBlock('notifications', notifications.length);
  await Post.insertMany(posts, { ordered: true });
  await Repost.insertMany(reposts.map((r, i) => ({ _id: firstRepostId + i, ...r })));
  await Comment.insertMany(comments);
  await Like.insertMany(likes.map((l, i) => ({ _id: firstLikeId + i, ...l })));
  await Notification.insertMany(
    notifications.map((n, i) => ({ _id: firstNotificationId + i, ...n })),
  );
  // createdAt is immutable through mongoose (members never change it): set on the collections.
  if (followedAt.length > 0) {
    await (Follow.collection as unknown as RawCollection).bulkWrite(
      followedAt.map(({ _id, at }) => ({
        updateOne: { filter: { _id }, update: { $set: { createdAt: at } } },
      })),
    );
  }
  await (User.collection as unknown as RawCollection).bulkWrite(
    people.map((id) => ({
      updateOne: {
        filter: { _id: id },
        update: {
          $set: {
            createdAt: new Date(joined(id)),
            lastActiveAt: lastActive.has(id) ? new Date(lastActive.get(id)!) : null,
          },
        },
      },
    })),
  );
  return {
    posts: posts.length,
    reposts: reposts.length,
    comments: comments.length,
    likes: likes.length,
    notifications: notifications.length,
  };
}
