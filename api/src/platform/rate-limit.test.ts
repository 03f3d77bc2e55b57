import Koa, { type Middleware } from 'koa';
import request from 'supertest';
import { errorMiddleware } from './errors';
import { createLogger } from './logger';
import type { AppState } from './auth';
import { MEMBER_ACTIONS, type MemberAction, type MemberLimit } from './config';
import { keyedLimit, memberLimiters, rateLimit } from './rate-limit';

function appWith(max: number, windowMs: number, now: () => number) {
  const app = new Koa();
  app.use(errorMiddleware(createLogger('silent')));
  app.use(rateLimit({ max, windowMs }, now));
  app.use((ctx) => {
    ctx.body = { ok: true };
  });
  return request(app.callback());
}

describe('rateLimit', () => {
  test('when the window has passed, then requests are allowed again', async () => {
    let time = 1_000_000;
    const client = appWith(1, 10_000, () => time);
    await client.get('/').expect(200);
    const limited = await client.get('/');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('10');
    time += 9_500;
    expect((await client.get('/')).headers['retry-after']).toBe('1');
    time += 500;
    await client.get('/').expect(200);
  });

  test('when max is 0, then the limit is off', async () => {
    const client = appWith(0, 10_000, () => 0);
    for (let i = 0; i < 5; i += 1) await client.get('/').expect(200);
  });
});

describe('memberLimiters', () => {
  const OFF: MemberLimit = { perMinute: 0, perDay: 0 };

  /** An app where `x-member` says who is signed in and each path is one action's route. */
  function memberApp(limits: Partial<Record<MemberAction, MemberLimit>>, now: () => number) {
    const limiters = memberLimiters(
      { ...Object.fromEntries(MEMBER_ACTIONS.map((a) => [a, OFF])), ...limits } as Record<
        MemberAction,
        MemberLimit
      >,
      now,
    );
    const app = new Koa<AppState>();
    app.use(errorMiddleware(createLogger('silent')));
    const signIn: Middleware<AppState> = async (ctx, next) => {
      const id = Number(ctx.get('x-member'));
      if (id) ctx.state.user = { id, roles: ['member'] } as unknown as AppState['user'];
      return next();
    };
    app.use(signIn);
    app.use(async (ctx, next) => {
      const action = ctx.path.slice(1) as MemberAction;
      return limiters[action](ctx, next);
    });
    app.use((ctx) => {
      ctx.body = { ok: true };
    });
    const client = request(app.callback());
    return (action: MemberAction, member: number) =>
      client.post(`/${action}`).set('x-member', String(member));
  }

  test('when a member makes more posts in a minute than allowed, then 429 with a clear message and Retry-After, and the next minute is open again', async () => {
    let time = 5_000_000;
    const act = memberApp({ posts: { perMinute: 3, perDay: 100 } }, () => time);
    for (let i = 0; i < 3; i += 1) await act('posts', 1).expect(200);
    const limited = await act('posts', 1);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.body).toEqual({
      message:
        'Too many posts: you can make at most 3 posts per minute. Please try again in 60 seconds.',
    });
    time += 60_000;
    await act('posts', 1).expect(200);
  });

  test('when one member is limited, then another member and another action are not', async () => {
    const act = memberApp(
      { comments: { perMinute: 1, perDay: 0 }, likes: { perMinute: 1, perDay: 0 } },
      () => 0,
    );
    await act('comments', 1).expect(200);
    await act('comments', 1).expect(429);
    await act('comments', 2).expect(200);
    await act('likes', 1).expect(200);
  });

  test('when the daily limit is reached, then 429 says so until the day has passed, and refused attempts do not count', async () => {
    let time = 0;
    const act = memberApp({ follows: { perMinute: 2, perDay: 3 } }, () => time);
    await act('follows', 1).expect(200);
    await act('follows', 1).expect(200);
    await act('follows', 1).expect(429); // the minute's limit; not counted for the day
    time += 60_000;
    await act('follows', 1).expect(200);
    const limited = await act('follows', 1);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(
      'Too many follows: you can make at most 3 follows per day. Please try again in 24 hours.',
    );
    expect(Number(limited.headers['retry-after'])).toBe(24 * 3600 - 60);
    time += 24 * 3600 * 1000;
    await act('follows', 1).expect(200);
  });

  test('when many attempts arrive at once, then exactly the allowed number passes', async () => {
    const act = memberApp({ reposts: { perMinute: 5, perDay: 0 } }, () => 0);
    const statuses = await Promise.all(
      Array.from({ length: 30 }, () => act('reposts', 1).then((res) => res.status)),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(25);
  });

  test('when both limits of an action are 0, then it is unlimited; avatar uploads have their own words', async () => {
    const act = memberApp({ avatars: { perMinute: 1, perDay: 0 } }, () => 0);
    for (let i = 0; i < 5; i += 1) await act('posts', 1).expect(200);
    await act('avatars', 1).expect(200);
    expect((await act('avatars', 1)).body.message).toBe(
      'Too many profile picture uploads: you can make at most 1 profile picture upload per minute. Please try again in 60 seconds.',
    );
  });
});

describe('keyedLimit', () => {
  test('when a key is over its limit, then it is refused until the window ends, and other keys are not', () => {
    let time = 0;
    const limit = keyedLimit({ max: 2, windowMs: 1000 }, () => time);
    expect([limit.allow('a'), limit.allow('a'), limit.allow('a')]).toEqual([true, true, false]);
    expect(limit.allow('b')).toBe(true);
    time = 1000;
    expect(limit.allow('a')).toBe(true);
  });

  test('when max is 0, then every attempt is allowed', () => {
    const limit = keyedLimit({ max: 0, windowMs: 1000 });
    expect(Array.from({ length: 5 }, () => limit.allow('a'))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
  });
});
