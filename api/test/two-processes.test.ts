/**
 * Two real API processes (src/main.ts, each in a child process with its own connection, read
 * caches and change stream) on one database, as API_PROCESSES or a load balancer runs them:
 * what one process writes, the other serves at once.
 */
import type { Post } from '@campus/contracts';
import { trusted } from 'mongoose';
import sharp from 'sharp';
import { startApiProcess, type ApiProcess } from './api-process';
import { TEST_JWT_SECRET, TEST_PASSWORD, useTestApp } from './test-app';

const t = useTestApp();
let a: ApiProcess;
let b: ApiProcess;

/** Start-up of two API processes on a busy machine (tsx compiles the API in each). */
jest.setTimeout(180_000);

/** An API process's environment on this file's database, with `extra` on top. */
function processEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { host, port, name } = t.database.connection;
  return {
    MONGODB_URI: `mongodb://${host}:${port}/${name}?directConnection=true`,
    DATA_DIR: t.dataDir,
    JWT_SECRET: TEST_JWT_SECRET,
    BCRYPT_ROUNDS: '4',
    // The like storms are members' many presses: no per-member limit.
    RATE_LIMIT_LIKES_PER_MINUTE: '0',
    RATE_LIMIT_LIKES_PER_DAY: '0',
    ...extra,
  };
}

beforeAll(async () => {
  const env = processEnv({
    // The sign-in delays per account, kept in the database for both processes: after 3 failures
    // a wait far longer than the test.
    RATE_LIMIT_LOGIN_FREE_FAILURES: '3',
    RATE_LIMIT_LOGIN_FIRST_DELAY_MS: '600000',
    RATE_LIMIT_LOGIN_MAX_DELAY_MS: '600000',
    RATE_LIMIT_AVATARS_PER_MINUTE: '0',
    RATE_LIMIT_AVATARS_PER_DAY: '0',
  });
  [a, b] = await Promise.all([startApiProcess(env), startApiProcess(env)]);
  expect(a.pid).not.toBe(b.pid);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

type Member = Awaited<ReturnType<typeof t.createMember>>;

async function call(
  api: ApiProcess,
  member: Member | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown; headers: Headers; bytes: Buffer }> {
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: {
      ...(member ? { Authorization: member.auth } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const isJson = res.headers.get('content-type')?.includes('application/json');
  return {
    status: res.status,
    headers: res.headers,
    bytes,
    body: isJson ? JSON.parse(bytes.toString()) : undefined,
  };
}

const feedOf = async (api: ApiProcess, viewer: Member) => {
  const res = await call(api, viewer, 'GET', '/api/posts');
  expect(res.status).toBe(200);
  return res.body as Post[];
};

describe('two API processes on one database', () => {
  test('when a member likes a post through A, then B’s next feed page and the post show the like and its count at once', async () => {
    const ada = await t.createMember();
    const ben = await t.createMember();
    const created = await call(a, ada, 'POST', '/api/posts', { content: 'liked through A' });
    expect(created.status).toBe(201);
    const post = created.body as Post;
    // B has read (and cached) the page and the post before the like.
    for (let read = 0; read < 2; read += 1) {
      expect((await feedOf(b, ben)).find((p) => p.id === post.id)).toMatchObject({
        likesCount: 0,
        isLiked: false,
      });
    }

    const liked = await call(a, ben, 'POST', `/api/posts/${post.id}/like`);
    expect(liked.status).toBe(200);

    expect((await feedOf(b, ben)).find((p) => p.id === post.id)).toMatchObject({
      likesCount: 1,
      isLiked: true,
    });
    const detail = await call(b, ada, 'GET', `/api/posts/${post.id}`);
    expect(detail.body).toMatchObject({ id: post.id, likesCount: 1, isLiked: false });
  });

  test('when a member uploads an avatar through A, then B serves the same bytes with the same ETag, and a 304 for it', async () => {
    const ada = await t.createMember();
    const png = await sharp({
      create: { width: 40, height: 30, channels: 3, background: '#2a6' },
    })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('avatar', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png');
    const uploaded = await fetch(`${a.url}/api/upload/avatar`, {
      method: 'POST',
      headers: { Authorization: ada.auth },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const { avatarUrl } = (await uploaded.json()) as { avatarUrl: string };
    const path = new URL(avatarUrl).pathname;

    const fromA = await call(a, undefined, 'GET', path);
    const fromB = await call(b, undefined, 'GET', path);
    expect(fromA.status).toBe(200);
    expect(fromB.status).toBe(200);
    expect(fromB.bytes.equals(fromA.bytes)).toBe(true);
    expect((await sharp(fromB.bytes).metadata()).format).toBe('webp');
    expect(fromB.headers.get('content-type')).toBe('image/webp');
    expect(fromB.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(fromB.headers.get('etag')).toBe(fromA.headers.get('etag'));

    const revalidated = await fetch(`${b.url}${path}`, {
      headers: { 'If-None-Match': fromA.headers.get('etag')! },
    });
    expect(revalidated.status).toBe(304);

    // Set as the avatar through B (B must find the file A stored), shown by A.
    const saved = await call(b, ada, 'PUT', `/api/users/${ada.id}`, {
      name: ada.name,
      avatarUrl,
    });
    expect(saved.status).toBe(200);
    expect((await call(a, ada, 'GET', `/api/users/${ada.id}`)).body).toMatchObject({
      avatarUrl: expect.stringMatching(new RegExp(`${path}$`)),
    });
  });

  test('when an account’s failed sign-ins set its delay through A, then B holds it too', async () => {
    const ada = await t.createMember();
    const signIn = (api: ApiProcess, password: string) =>
      call(api, undefined, 'POST', '/api/auth/login', { email: ada.email, password });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await signIn(a, 'wrong password')).status).toBe(401);
    }
    const refused = await signIn(b, 'wrong password');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    // Too early from a device new to the account: not looked at, right or wrong.
    expect((await signIn(b, TEST_PASSWORD)).status).toBe(429);
    // Another account is not affected.
    const ben = await t.createMember();
    expect(
      (
        await call(b, undefined, 'POST', '/api/auth/login', {
          email: ben.email,
          password: TEST_PASSWORD,
        })
      ).status,
    ).toBe(200);
  });

  test('when 200 like toggles on one post run at once, spread over A and B, then its count equals its likes', async () => {
    const author = await t.createMember();
    const post = (await call(a, author, 'POST', '/api/posts', { content: 'storm' })).body as Post;
    // 60 members press once (they end liking it) and 35 press four times, alternately through A
    // and B: 200 presses, all at once.
    const members = await Promise.all(Array.from({ length: 95 }, () => t.createMember()));
    const presses = members.flatMap((member, i) =>
      (i < 60 ? [0] : [0, 1, 2, 3]).map((n) => ({ member, api: (i + n) % 2 === 0 ? a : b })),
    );
    expect(presses).toHaveLength(200);
    const answers = await Promise.all(
      presses.map(({ member, api }) => call(api, member, 'POST', `/api/posts/${post.id}/like`)),
    );
    expect(answers.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);

    const likes = await t.models.Like.countDocuments({ postId: post.id });
    const stored = await t.models.Post.findById(post.id, { likesCount: 1 }).lean();
    expect(stored?.likesCount).toBe(likes);
    const singlePressers = members.slice(0, 60).map((m) => m.id);
    expect(
      await t.models.Like.countDocuments({
        postId: post.id,
        userId: trusted({ $in: singlePressers }),
      }),
    ).toBe(60);
    // Both processes show the exact count.
    for (const api of [a, b]) {
      const shown = await call(api, author, 'GET', `/api/posts/${post.id}`);
      expect(shown.body).toMatchObject({ likesCount: likes });
    }
  });

  test('when an API process is killed (SIGKILL) during a burst of likes, then the other serves every acknowledged like in its next pages', async () => {
    // C takes the likes and is killed; the reader keeps what it reads ten minutes, so only the
    // events of C's committed likes can make it read those posts again.
    const env = processEnv({ READ_CACHE_MS: '600000' });
    const [c, reader] = await Promise.all([startApiProcess(env), startApiProcess(env)]);
    try {
      const author = await t.createMember();
      const posts: Post[] = [];
      for (let i = 0; i < 5; i += 1)
        posts.push(
          (await call(a, author, 'POST', '/api/posts', { content: `burst ${i}` })).body as Post,
        );
      const members = await Promise.all(Array.from({ length: 40 }, () => t.createMember()));
      // The reader holds every page and post before the burst.
      const before = await feedOf(reader, author);
      for (const post of posts) expect(before.find((p) => p.id === post.id)?.likesCount).toBe(0);

      const acknowledged = new Map<number, number>(posts.map((p) => [p.id, 0]));
      let answered = 0;
      let killed: Promise<void> | undefined;
      const presses = members.flatMap((member, i) =>
        [posts[i % 5]!, posts[(i + 2) % 5]!].map(async (post) => {
          const res = await fetch(`${c.url}/api/posts/${post.id}/like`, {
            method: 'POST',
            headers: { Authorization: member.auth },
          }).catch(() => undefined);
          if (res?.status === 200) acknowledged.set(post.id, acknowledged.get(post.id)! + 1);
          // Killed in the middle of the burst: a third of the presses answered.
          if (++answered === 25) killed = c.kill();
        }),
      );
      await Promise.all(presses);
      await killed;
      expect([...acknowledged.values()].reduce((a, b) => a + b)).toBeGreaterThanOrEqual(25);

      // Every acknowledged like is stored with its count (C's transactions were whole)...
      const stored = new Map(
        (await t.models.Post.find({ _id: trusted({ $in: posts.map((p) => p.id) }) }).lean()).map(
          (p) => [p._id, p.likesCount],
        ),
      );
      for (const [id, likes] of acknowledged) {
        expect(stored.get(id)).toBeGreaterThanOrEqual(likes);
        expect(stored.get(id)).toBe(await t.models.Like.countDocuments({ postId: id }));
      }
      // ...and the reader, told by the outbox, shows those counts (waiting for its change
      // stream: with its pages kept ten minutes, nothing else could change them).
      const shows = async () => {
        const page = await feedOf(reader, author);
        return posts.every(
          (post) => page.find((p) => p.id === post.id)?.likesCount === stored.get(post.id),
        );
      };
      const deadline = Date.now() + 60_000;
      while (!(await shows()) && Date.now() < deadline) await new Promise((r) => setImmediate(r));
      expect(await shows()).toBe(true);
    } finally {
      await Promise.all([c.kill(), reader.stop()]);
    }
  });
});
