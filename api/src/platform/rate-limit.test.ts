import Koa, { type Middleware } from 'koa';
import request from 'supertest';
import { start } from '@campus/embedded-mongo';
import { connectDatabase, type Database } from './db';
import { errorMiddleware } from './errors';
import { createLogger } from './logger';
import type { AppState } from './auth';
import { MEMBER_ACTIONS, type MemberAction, type MemberLimit } from './config';
import { createRateLimits } from './rate-limit';
import { rateLimitWindowModel, type RateLimitWindowModel } from './rate-limit-model';

let server: Awaited<ReturnType<typeof start>> | undefined;
let database: Database<{ RateLimitWindow: RateLimitWindowModel }>;

beforeAll(async () => {
  if (!process.env.TEST_MONGODB_URI) server = await start({ port: 0 });
  database = await connectDatabase(process.env.TEST_MONGODB_URI ?? server!.uri, {
    dbName: `rate_limit_${Date.now()}`,
    models: (connection) => ({ RateLimitWindow: rateLimitWindowModel(connection) }),
  });
});

// Each test starts from no counts (the tests reuse limit names, keys and clock values).
beforeEach(() => database.models.RateLimitWindow.deleteMany({}));

afterAll(async () => {
  if (process.env.TEST_MONGODB_URI) await database.connection.dropDatabase();
  await database.close();
  await server?.stop();
});

const OFF: MemberLimit = { perMinute: 0, perDay: 0 };
const allOff = () =>
  Object.fromEntries(MEMBER_ACTIONS.map((a) => [a, OFF])) as Record<MemberAction, MemberLimit>;

function limitsAt(now: () => number, members = allOff()) {
  return createRateLimits(database.models.RateLimitWindow, members, now);
}

function appWith(max: number, windowMs: number, now: () => number) {
  const app = new Koa();
  app.use(errorMiddleware(createLogger('silent')));
  app.use(limitsAt(now).perIp('test', { max, windowMs }));
  app.use((ctx) => {
    ctx.body = { ok: true };
  });
  return request(app.callback());
}

describe('perIp', () => {
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

describe('member limiters', () => {
  /** An app where `x-member` says who is signed in and each path is one action's route. */
  function memberApp(limits: Partial<Record<MemberAction, MemberLimit>>, now: () => number) {
    const limiters = limitsAt(now, { ...allOff(), ...limits }).members;
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
    let time = 4_980_000; // a minute starts here (windows are aligned to the clock)
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

describe('take', () => {
  test('when a key is over its limit, then it is refused until the window ends, and other keys are not', async () => {
    let time = 0;
    const { take } = limitsAt(() => time);
    const rule = { max: 2, windowMs: 1000 };
    const allowed = async (key: string) => (await take('keyed', key, rule)).allowed;
    expect([await allowed('a'), await allowed('a'), await allowed('a')]).toEqual([
      true,
      true,
      false,
    ]);
    expect(await allowed('b')).toBe(true);
    time = 1000;
    expect(await allowed('a')).toBe(true);
  });

  test('when an attempt is refunded, then it no longer counts', async () => {
    const { take } = limitsAt(() => 0);
    const rule = { max: 1, windowMs: 1000 };
    await (await take('keyed', 'a', rule)).refund();
    expect((await take('keyed', 'a', rule)).allowed).toBe(true);
    expect((await take('keyed', 'a', rule)).allowed).toBe(false);
  });

  test('when max is 0, then every attempt is allowed and nothing is stored', async () => {
    const { take } = limitsAt(Date.now);
    for (let i = 0; i < 5; i += 1) {
      expect((await take('keyed', 'a', { max: 0, windowMs: 1000 })).allowed).toBe(true);
    }
    expect(await database.models.RateLimitWindow.countDocuments()).toBe(0);
  });

  test('when a window is counted, then its document expires (TTL) at the end of the window and holds no raw key', async () => {
    const { take } = limitsAt(() => 10_500);
    await take('keyed', 'someone@campus.edu', { max: 5, windowMs: 1000 });
    const [stored] = await database.models.RateLimitWindow.find().lean();
    expect(stored).toMatchObject({ count: 1, expiresAt: new Date(11_000) });
    expect(stored?._id).toMatch(/^keyed:10000:/);
    expect(stored?._id).not.toContain('someone');
    const indexes = await database.models.RateLimitWindow.collection.indexes();
    expect(indexes).toContainEqual(
      expect.objectContaining({ key: { expiresAt: 1 }, expireAfterSeconds: 0 }),
    );
  });
});
