import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppState } from './auth';
import type { MemberAction, MemberLimit, RateLimitRule } from './config';
import { HttpError } from './errors';
import { isDuplicateKey } from './mongo-errors';
import type { RateLimitWindowModel } from './rate-limit-model';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** One counted attempt: whether it is within the limit, and how to take it back. */
export interface Attempt {
  allowed: boolean;
  /** Seconds until the window ends (for `Retry-After`). */
  retryAfter: number;
  /** Takes this attempt back out of the count (a success that must not count, a refusal). */
  refund(): Promise<void>;
}

function tooMany(message: string, retryAfter: number): HttpError {
  return new HttpError(429, message, { 'Retry-After': String(retryAfter) });
}

export const TOO_MANY_REQUESTS = 'Too many requests. Please try again later.';

/**
 * Fixed windows counted in the database (`rate_limits`, platform/rate-limit-model.ts), so every
 * API process on the database counts into the same windows. An attempt is one atomic `$inc`
 * upsert of its window's document, counted before any work is done, so a burst sent at once
 * (to one process or spread over several) cannot slip past the limit.
 */
export function windowCounter(RateLimitWindow: RateLimitWindowModel, now: () => number) {
  return async function take(
    limit: string,
    key: string,
    { max, windowMs }: RateLimitRule,
  ): Promise<Attempt> {
    const time = now();
    const start = time - (time % windowMs);
    // Keys are hashed: no e-mail address or token is kept in the collection, and any key has
    // the same short length.
    const _id = `${limit}:${start}:${createHash('sha256').update(key).digest('base64url')}`;
    const retryAfter = Math.max(1, Math.ceil((start + windowMs - time) / 1000));
    const increment = () =>
      RateLimitWindow.findOneAndUpdate(
        { _id },
        { $inc: { count: 1 }, $setOnInsert: { expiresAt: new Date(start + windowMs) } },
        { upsert: true, returnDocument: 'after', lean: true },
      );
    let window;
    try {
      window = await increment();
    } catch (err) {
      // Two first attempts in one window raced to insert it: the loser increments the winner's.
      if (!isDuplicateKey(err)) throw err;
      window = await increment();
    }
    return {
      allowed: (window?.count ?? 1) <= max,
      retryAfter,
      refund: async () => {
        await RateLimitWindow.updateOne({ _id }, { $inc: { count: -1 } });
      },
    };
  };
}

export type TakeAttempt = ReturnType<typeof windowCounter>;

/** How each action is named in the 429 message ("at most 10 posts per minute"). */
const ACTION_NOUNS: Record<MemberAction, [one: string, many: string]> = {
  posts: ['post', 'posts'],
  comments: ['comment', 'comments'],
  reposts: ['repost', 'reposts'],
  likes: ['like', 'likes'],
  follows: ['follow', 'follows'],
  avatars: ['profile picture upload', 'profile picture uploads'],
  media: ['image upload', 'image uploads'],
  searches: ['search', 'searches'],
  postSearches: ['post search', 'post searches'],
};

function inWords(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  if (seconds < 90 * 60) return `${Math.ceil(seconds / 60)} minutes`;
  return `${Math.ceil(seconds / 3600)} hours`;
}

/** The 429 message a member reads (the apps show it as it is, in a toast). */
export function memberLimitMessage(
  action: MemberAction,
  max: number,
  per: 'minute' | 'day',
  retryAfter: number,
): string {
  const [one, many] = ACTION_NOUNS[action];
  return `Too many ${many}: you can make at most ${max} ${max === 1 ? one : many} per ${per}. Please try again in ${inWords(retryAfter)}.`;
}

export type MemberLimiters = Record<MemberAction, Middleware<AppState>>;

/** A limit's state: the rule, and a `limit` name that keeps its windows apart from the others'. */
type Named = { name: string; rule: RateLimitRule };

/**
 * The app's rate limits, counted in its database (one instance per app, built by createApp):
 *
 * - `perIp(name, rule)`: a middleware counting every request per client address (`ctx.ip`,
 *   which honours `TRUST_PROXY_HOPS`), for calls made before or without signing in;
 * - `perMember(name, rule)`: a middleware counting per signed-in member, put after `requireAuth`
 *   so a request that is not signed in counts against nobody;
 * - `take(name, key, rule)`: one attempt for any key (an e-mail address, a token), for limits a
 *   route applies itself, with `refund()` to take back what must not count (a success);
 * - `members`: one limiter per member action (posts, comments, searches, ...), per minute and
 *   per day.
 *
 * `max: 0` turns a limit off. Over a limit: 429 with `Retry-After` in whole seconds.
 */
export function createRateLimits(
  RateLimitWindow: RateLimitWindowModel,
  memberLimits: Record<MemberAction, MemberLimit>,
  now: () => number = Date.now,
) {
  const counter = windowCounter(RateLimitWindow, now);
  const take = async (name: string, key: string, rule: RateLimitRule): Promise<Attempt> => {
    if (rule.max === 0 || rule.windowMs === 0) {
      return { allowed: true, retryAfter: 0, refund: async () => {} };
    }
    return counter(name, key, rule);
  };
  const refuseOver = async (limit: Named, key: string) => {
    const attempt = await take(limit.name, key, limit.rule);
    if (!attempt.allowed) throw tooMany(TOO_MANY_REQUESTS, attempt.retryAfter);
  };

  const memberLimiter = (action: MemberAction): Middleware<AppState> => {
    const { perMinute, perDay } = memberLimits[action];
    const rules = [
      { max: perMinute, per: 'minute' as const, windowMs: MINUTE_MS },
      { max: perDay, per: 'day' as const, windowMs: DAY_MS },
    ].filter((rule) => rule.max > 0);
    return async (ctx, next) => {
      const memberId = ctx.state.user?.id;
      if (memberId === undefined || rules.length === 0) return next();
      const attempts = await Promise.all(
        rules.map(async (rule) => ({
          ...rule,
          attempt: await take(`${action}-per-${rule.per}`, String(memberId), rule),
        })),
      );
      // The longest wait decides: a member over the daily limit is told about the day.
      const exceeded = attempts
        .filter(({ attempt }) => !attempt.allowed)
        .sort((a, b) => b.attempt.retryAfter - a.attempt.retryAfter)[0];
      if (exceeded) {
        // A refused attempt does not count, in any window.
        await Promise.all(attempts.map(({ attempt }) => attempt.refund()));
        const { retryAfter } = exceeded.attempt;
        throw tooMany(
          memberLimitMessage(action, exceeded.max, exceeded.per, retryAfter),
          retryAfter,
        );
      }
      return next();
    };
  };

  return {
    take,
    perIp(name: string, rule: RateLimitRule): Middleware {
      return async (ctx, next) => {
        await refuseOver({ name, rule }, ctx.ip);
        return next();
      };
    },
    perMember(name: string, rule: RateLimitRule): Middleware<AppState> {
      return async (ctx, next) => {
        const memberId = ctx.state.user?.id;
        if (memberId !== undefined) await refuseOver({ name, rule }, String(memberId));
        return next();
      };
    },
    /** The 429 for an attempt `take` refused, with `message` (default: the generic one). */
    refusal(attempt: Attempt, message = TOO_MANY_REQUESTS): HttpError {
      return tooMany(message, attempt.retryAfter);
    },
    members: {
      posts: memberLimiter('posts'),
      comments: memberLimiter('comments'),
      reposts: memberLimiter('reposts'),
      likes: memberLimiter('likes'),
      follows: memberLimiter('follows'),
      avatars: memberLimiter('avatars'),
      media: memberLimiter('media'),
      searches: memberLimiter('searches'),
      postSearches: memberLimiter('postSearches'),
    } satisfies MemberLimiters,
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;
