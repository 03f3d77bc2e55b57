/**
 * Demo content for every screen and chart: posts over the last 30 days (some today, some JD),
 * reposts with and without quotes, comments with replies, likes on posts and comments, and the
 * notifications they cause. Deterministic (a seeded PRNG), and the denormalized counts are
 * computed from the generated likes, comments and reposts, so they agree with a recount.
 */
import type { CommentDoc } from '../modules/comments/model';
import type { LikeDoc } from '../modules/likes/model';
import type { NotificationDoc } from '../modules/notifications/model';
import { notificationKinds } from '../modules/notifications/registry';
import type { PostDoc } from '../modules/posts/model';
import type { RepostDoc } from '../modules/reposts/model';
import type { Models } from '../models';
import type { Services } from '../services';

const DAY = 86_400_000;

const TOPICS = [
  'Library extended hours start this week: open until 2 am during exams.',
  'Anyone up for a study group on distributed systems? Thursday, room B204.',
  'The robotics club demo day was amazing. Thanks to everyone who came!',
  'Lost a blue water bottle near the gym. Let me know if you find it.',
  'Free pizza at the career fair prep session tomorrow at noon.',
  'Just submitted my thesis draft. Time to sleep for a week.',
  'Campus cafe finally has oat milk. Best news of the semester.',
  'Looking for a teammate for the hackathon next month: frontend + design.',
  'Alumni panel on careers in climate tech next Friday. Bring questions!',
  'The new bike racks by the science building are a game changer.',
  'Reminder: course registration closes Sunday night.',
  'Photos from the spring concert are up on the student union page.',
  'Does anyone have notes from yesterday’s linear algebra lecture?',
  'Volunteering at the food bank this weekend, join us at 9 am.',
  'Proud of our debate team for making the national finals!',
];

const JOBS = [
  'We are hiring summer interns in data engineering. DM me for a referral.',
  'Research assistant position open in the bio lab, 10 h/week, paid.',
  'Graduate admissions: the MSc in AI application deadline is March 1.',
  'Junior frontend developer role at a campus startup, React + TypeScript.',
  'Teaching assistant openings for intro programming next term.',
  'My company is looking for a product design intern, remote friendly.',
];

const REACTIONS = [
  'Great point!',
  'Count me in.',
  'Thanks for sharing this.',
  'Is this open to first-years too?',
  'Same here, honestly.',
  'Where can I sign up?',
  'This made my day.',
  'Congrats!',
  'Following for updates.',
  'Can you share more details?',
];

/** Mulberry32: a small deterministic PRNG. */
function prng(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface ContentOptions {
  memberIds: number[];
  adminId: number;
  now?: Date;
  posts?: number;
}

export async function seedDemoContent(
  target: {
    models: Pick<Models, 'Post' | 'Repost' | 'Comment' | 'Like' | 'Notification'>;
    services: Pick<Services, 'counters'>;
  },
  options: ContentOptions,
) {
  const { Post, Repost, Comment, Like, Notification } = target.models;
  const { reserveIdBlock } = target.services.counters;
  const random = prng(2026);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
  const now = options.now?.getTime() ?? Date.now();
  const people = [...options.memberIds, options.adminId];
  const postCount = options.posts ?? 220;

  // Post times: spread over 30 days, the newest 15 within the last few hours ("today").
  const times = Array.from({ length: postCount }, (_, i) =>
    i >= postCount - 15 ? now - random() * 3 * 3_600_000 : now - (1 + random() * 29) * DAY,
  ).sort((a, b) => a - b);
  const firstPostId = await reserveIdBlock('posts', postCount + 40 + 60);
  let nextPostId = firstPostId;

  const posts: PostDoc[] = times.map((t) => {
    const jd = random() < 0.18;
    return {
      _id: nextPostId++,
      authorId: pick(people),
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
  const byId = new Map(posts.map((p) => [p._id, p]));
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
        ? notificationKinds[type].store({ actorId, postId, commentId })
        : notificationKinds[type].store({ actorId, postId })),
      // Older than two days: already seen.
      isRead: now - at.getTime() > 2 * DAY,
      createdAt: at,
    });
  };
  const after = (t: Date, maxMs: number) =>
    new Date(Math.min(now, t.getTime() + 60_000 + random() * maxMs));

  // Reposts, half of them quoted.
  const reposts: Array<Omit<RepostDoc, '_id'>> = [];
  const reposted = new Set<string>();
  for (let i = 0; i < 40; i++) {
    const original = pick(posts);
    const userId = pick(people);
    const key = `${userId}:${original._id}`;
    if (userId === original.authorId || reposted.has(key)) continue;
    reposted.add(key);
    const at = after(original.createdAt, 2 * DAY);
    const repost: PostDoc = {
      ...original,
      _id: nextPostId++,
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
    posts.push(repost);
    byId.set(repost._id, repost);
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
    const authorId = pick(people);
    const candidates = topLevelByPost.get(post._id) ?? [];
    const parent = candidates.length && random() < 0.35 ? pick(candidates) : null;
    const at = after(parent?.createdAt ?? post.createdAt, DAY);
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
      const at = after(post.createdAt, DAY);
      likes.push({ userId, postId: post._id, commentId: null, createdAt: at });
      post.likesCount += 1;
      notifyOf(post.authorId, 'like', userId, post._id, at);
    }
  }
  for (const comment of comments) {
    if (random() < 0.6) continue;
    const userId = pick(people);
    likes.push({
      userId,
      postId: null,
      commentId: comment._id,
      createdAt: after(comment.createdAt, DAY),
    });
    comment.likesCount += 1;
  }

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
  return {
    posts: posts.length,
    reposts: reposts.length,
    comments: comments.length,
    likes: likes.length,
    notifications: notifications.length,
  };
}
