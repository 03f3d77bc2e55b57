import type { Middleware } from 'koa';
import type { RateLimitRule } from './config';
import { HttpError } from './errors';

interface Window {
  count: number;
  resetAt: number;
}

/**
 * Fixed-window limit per client IP, kept in memory (one API process). `max: 0` disables the limit.
 * Over the limit: 429 with `Retry-After` in whole seconds.
 */
export function rateLimit(rule: RateLimitRule, now: () => number = Date.now): Middleware {
  const windows = new Map<string, Window>();
  let nextSweep = 0;

  return async (ctx, next) => {
    if (rule.max === 0) return next();
    const time = now();
    if (time >= nextSweep) {
      for (const [key, window] of windows) if (window.resetAt <= time) windows.delete(key);
      nextSweep = time + rule.windowMs;
    }
    const key = ctx.ip;
    let window = windows.get(key);
    if (!window || window.resetAt <= time) {
      window = { count: 0, resetAt: time + rule.windowMs };
      windows.set(key, window);
    }
    window.count += 1;
    if (window.count > rule.max) {
      const retryAfter = Math.max(1, Math.ceil((window.resetAt - time) / 1000));
      throw new HttpError(429, 'Too many requests. Please try again later.', {
        'Retry-After': String(retryAfter),
      });
    }
    return next();
  };
}
