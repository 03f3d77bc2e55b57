import type { Middleware } from 'koa';
import type { AppState } from './auth';
import type { MemberAction, MemberLimit, RateLimitRule } from './config';
import { HttpError } from './errors';

interface Window {
  count: number;
  resetAt: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * Fixed windows of `windowMs` per key, kept in this process's memory (every API process counts
 * on its own). Windows that have ended are swept once per window length, so memory follows the
 * keys active within one window.
 */
function fixedWindows(windowMs: number) {
  const windows = new Map<string, Window>();
  let nextSweep = 0;
  return {
    current(key: string, time: number): Window {
      if (time >= nextSweep) {
        for (const [k, window] of windows) if (window.resetAt <= time) windows.delete(k);
        nextSweep = time + windowMs;
      }
      let window = windows.get(key);
      if (!window || window.resetAt <= time) {
        window = { count: 0, resetAt: time + windowMs };
        windows.set(key, window);
      }
      return window;
    },
  };
}

function retryAfterSeconds(window: Window, time: number): number {
  return Math.max(1, Math.ceil((window.resetAt - time) / 1000));
}

function tooMany(message: string, retryAfter: number): HttpError {
  return new HttpError(429, message, { 'Retry-After': String(retryAfter) });
}

/**
 * Fixed-window limit per client IP (for calls made before or without signing in). `max: 0`
 * disables the limit. Over the limit: 429 with `Retry-After` in whole seconds.
 */
export function rateLimit(rule: RateLimitRule, now: () => number = Date.now): Middleware {
  const windows = fixedWindows(rule.windowMs);
  return async (ctx, next) => {
    if (rule.max === 0) return next();
    const time = now();
    const window = windows.current(ctx.ip, time);
    window.count += 1;
    if (window.count > rule.max) {
      throw tooMany('Too many requests. Please try again later.', retryAfterSeconds(window, time));
    }
    return next();
  };
}

/**
 * Fixed-window counting per any key (e.g. an e-mail address), for limits a route applies itself:
 * `allow(key)` counts an attempt and says whether it is within `rule.max` (`max: 0`: always).
 */
export function keyedLimit(rule: RateLimitRule, now: () => number = Date.now) {
  const windows = fixedWindows(rule.windowMs);
  return {
    allow(key: string): boolean {
      if (rule.max === 0) return true;
      const window = windows.current(key, now());
      window.count += 1;
      return window.count <= rule.max;
    },
  };
}

/** How each action is named in the 429 message ("at most 10 posts per minute"). */
const ACTION_NOUNS: Record<MemberAction, [one: string, many: string]> = {
  posts: ['post', 'posts'],
  comments: ['comment', 'comments'],
  reposts: ['repost', 'reposts'],
  likes: ['like', 'likes'],
  follows: ['follow', 'follows'],
  avatars: ['profile picture upload', 'profile picture uploads'],
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

/**
 * One limiter per member action (posts, comments, reposts, likes, follows, avatar uploads), each
 * counting per signed-in member per minute and per day; a route puts its action's limiter after
 * `requireAuth`. Every attempt counts, counted before the work is done, so requests sent all at
 * once cannot slip past; an attempt refused with 429 does not count. Built once per app, so the
 * routes of one action (liking posts and comments) share their counts.
 */
export function memberLimiters(
  limits: Record<MemberAction, MemberLimit>,
  now: () => number = Date.now,
): MemberLimiters {
  const limiter = (action: MemberAction): Middleware<AppState> => {
    const { perMinute, perDay } = limits[action];
    const rules = [
      { max: perMinute, per: 'minute' as const, windows: fixedWindows(MINUTE_MS) },
      { max: perDay, per: 'day' as const, windows: fixedWindows(DAY_MS) },
    ].filter((rule) => rule.max > 0);
    return async (ctx, next) => {
      const memberId = ctx.state.user?.id;
      if (memberId === undefined || rules.length === 0) return next();
      const time = now();
      const current = rules.map((rule) => ({
        ...rule,
        window: rule.windows.current(String(memberId), time),
      }));
      // The longest wait decides: a member over the daily limit is told about the day.
      const exceeded = current
        .filter(({ window, max }) => window.count >= max)
        .sort((a, b) => b.window.resetAt - a.window.resetAt)[0];
      if (exceeded) {
        const retryAfter = retryAfterSeconds(exceeded.window, time);
        throw tooMany(
          memberLimitMessage(action, exceeded.max, exceeded.per, retryAfter),
          retryAfter,
        );
      }
      for (const { window } of current) window.count += 1;
      return next();
    };
  };
  return {
    posts: limiter('posts'),
    comments: limiter('comments'),
    reposts: limiter('reposts'),
    likes: limiter('likes'),
    follows: limiter('follows'),
    avatars: limiter('avatars'),
  };
}
