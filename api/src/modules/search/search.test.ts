import type { Post, PostPage } from '@campus/contracts';
import { useTestApp, type Member } from '../../../test/test-app';
import { publish } from '../../../test/content';

const app = useTestApp();

async function search(viewer: Member, query: string, status = 200) {
  const res = await app
    .http()
    .get(`/api/search/posts?${query}`)
    .set('Authorization', viewer.auth)
    .expect(status);
  return res.body as PostPage & { message?: string };
}

const q = (words: string, extra = '') => `q=${encodeURIComponent(words)}${extra}`;

/** Sets when a post was written (the store's own field: results are ranked by it). */
async function writtenAt(post: { id: number }, at: Date) {
  // Through the driver: the model keeps `createdAt` immutable.
  await app.models.Post.collection.updateOne(
    { _id: post.id as never },
    { $set: { createdAt: at } },
  );
  app.caches.feed.clear();
}

const ids = (posts: Post[]) => posts.map((p) => p.id);

describe('GET /api/search/posts', () => {
  test('when a word is written exactly in one post and only stemmed in another, then the exact one ranks first, even when older', async () => {
    const ada = await app.createMember();
    const exact = await publish(app.http, ada, 'Volunteers needed for gardening this weekend');
    const stemmed = await publish(app.http, ada, 'Volunteers needed for gardens this weekend');
    // The exact post is a day older: relevance outweighs a day of recency.
    await writtenAt(exact, new Date(Date.now() - 24 * 60 * 60 * 1000));
    const page = await search(ada, q('gardening'));
    expect(ids(page.posts)).toEqual([exact.id, stemmed.id]);
  });

  test('when two posts match equally, then the newer ranks first', async () => {
    const ada = await app.createMember();
    const older = await publish(app.http, ada, 'Marimba recital tonight');
    const newer = await publish(app.http, ada, 'Marimba recital tonight');
    await writtenAt(older, new Date(Date.now() - 60 * 60 * 1000));
    expect(ids((await search(ada, q('marimba'))).posts)).toEqual([newer.id, older.id]);
    // And with the times the other way round.
    await writtenAt(older, new Date(Date.now() + 60 * 60 * 1000));
    expect(ids((await search(ada, q('marimba'))).posts)).toEqual([older.id, newer.id]);
  });

  test('when results span pages, then the cursor walks them with no duplicates or gaps', async () => {
    const ada = await app.createMember();
    const created: number[] = [];
    for (let i = 0; i < 45; i++) {
      const post = await publish(
        app.http,
        ada,
        `Xylophone ${i % 3 === 0 ? 'xylophone ' : ''}notes ${i}`,
      );
      created.push(post.id);
    }
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await search(ada, q('xylophone', cursor ? `&cursor=${cursor}` : ''));
      expect(page.posts.length).toBeLessThanOrEqual(20);
      seen.push(...ids(page.posts));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort((a, b) => a - b)).toEqual([...created].sort((a, b) => a - b));
    // The posts with the word twice come first.
    const twice = created.filter((_, i) => i % 3 === 0);
    expect(seen.slice(0, twice.length).sort((a, b) => a - b)).toEqual(twice);
  });

  test('when filters are given, then each narrows the results', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const byAda = await publish(app.http, ada, 'Quokka sighting near the library');
    const jd = await publish(app.http, bob, 'Quokka researcher wanted', { isJdTagged: true });
    const old = await publish(app.http, bob, 'Quokka facts from last year');
    await writtenAt(old, new Date('2025-03-10T12:00:00Z'));
    const withImage = await publish(app.http, bob, 'Quokka picture');
    await app.models.Post.updateOne(
      { _id: withImage.id },
      {
        $set: {
          images: [{ id: 'img1', alt: '', width: 10, height: 10, placeholder: 'x', variants: [] }],
        },
      },
    );
    await app.caughtUp();
    app.caches.feed.clear();
    const all = ids((await search(ada, q('quokka'))).posts);
    expect(all.sort()).toEqual([byAda.id, jd.id, old.id, withImage.id].sort());
    expect(ids((await search(ada, q('quokka', `&from=${ada.id}`))).posts)).toEqual([byAda.id]);
    expect(ids((await search(ada, q('quokka', '&jd=true'))).posts)).toEqual([jd.id]);
    expect(ids((await search(ada, q('quokka', '&images=true'))).posts)).toEqual([withImage.id]);
    expect(
      ids((await search(ada, q('quokka', '&since=2025-03-10&until=2025-03-10'))).posts),
    ).toEqual([old.id]);
    expect(ids((await search(ada, q('quokka', '&until=2025-03-09'))).posts)).toEqual([]);
    const recent = ids((await search(ada, q('quokka', '&since=2025-03-11'))).posts);
    expect(recent).not.toContain(old.id);
    expect(recent).toHaveLength(3);
  });

  test('when a day filter is read, then it is a day in the app time zone', async () => {
    const tokyo = app.another({ timezone: 'Asia/Tokyo' });
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'Okonomiyaki night');
    // 16:00 UTC on 3 May is 01:00 on 4 May in Tokyo.
    await writtenAt(post, new Date('2025-05-03T16:00:00Z'));
    const on = async (day: string) =>
      (
        await tokyo
          .http()
          .get(`/api/search/posts?q=okonomiyaki&since=${day}&until=${day}`)
          .set('Authorization', ada.auth)
          .expect(200)
      ).body as PostPage;
    expect(ids((await on('2025-05-04')).posts)).toEqual([post.id]);
    expect(ids((await on('2025-05-03')).posts)).toEqual([]);
  });

  test('when posts are deleted, plain reposts or by members the viewer blocked or muted, then they are not results; muted words are marked', async () => {
    const viewer = await app.createMember();
    const blocked = await app.createMember();
    const blocker = await app.createMember();
    const muted = await app.createMember();
    const friend = await app.createMember();
    const shown = await publish(app.http, friend, 'Zeppelin over campus');
    const gone = await publish(app.http, friend, 'Zeppelin spotted, deleted later');
    await app.http().delete(`/api/posts/${gone.id}`).set('Authorization', friend.auth).expect(200);
    const fromBlocked = await publish(app.http, blocked, 'Zeppelin from the blocked');
    const fromBlocker = await publish(app.http, blocker, 'Zeppelin from the blocker');
    const fromMuted = await publish(app.http, muted, 'Zeppelin from the muted');
    const quoteOfBlocked = await app
      .http()
      .post(`/api/posts/${fromBlocked.id}/repost`)
      .set('Authorization', friend.auth)
      .send({ comment: 'Zeppelin quote of a blocked member' })
      .expect(201);
    // A plain repost has no text of its own.
    await app
      .http()
      .post(`/api/posts/${shown.id}/repost`)
      .set('Authorization', friend.auth)
      .send({})
      .expect(201);
    const withWord = await publish(app.http, friend, 'Zeppelin and spoilers');
    await app
      .http()
      .post(`/api/users/${blocked.id}/block`)
      .set('Authorization', viewer.auth)
      .expect(200);
    await app
      .http()
      .post(`/api/users/${viewer.id}/block`)
      .set('Authorization', blocker.auth)
      .expect(200);
    await app
      .http()
      .post(`/api/users/${muted.id}/mute`)
      .set('Authorization', viewer.auth)
      .send({})
      .expect(200);
    await app
      .http()
      .post('/api/safety/muted-words')
      .set('Authorization', viewer.auth)
      .send({ phrase: 'spoilers' })
      .expect(201);
    await app.caughtUp();
    const page = await search(viewer, q('zeppelin'));
    const found = ids(page.posts);
    expect(found.sort()).toEqual([shown.id, withWord.id].sort());
    expect(page.posts.find((p) => p.id === withWord.id)?.mutedWord).toBe('spoilers');
    for (const hidden of [gone, fromBlocked, fromBlocker, fromMuted, quoteOfBlocked.body as Post])
      expect(found).not.toContain(hidden.id);
    // Others still find them.
    const other = await app.createMember();
    const theirs = ids((await search(other, q('zeppelin'))).posts);
    expect(theirs).toEqual(
      expect.arrayContaining([
        fromBlocked.id,
        fromBlocker.id,
        fromMuted.id,
        quoteOfBlocked.body.id,
      ]),
    );
  });

  test('when q looks like an operator or a pattern, then it is read as text, never as a query', async () => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'The $regex operator and .* patterns explained');
    for (const text of [
      '$where',
      'e-mail',
      'c++',
      '.*',
      '{"$gt": ""}',
      '/.*/',
      '^(a+)+$',
      '"unclosed',
      '-',
      '""',
    ]) {
      const page = await search(ada, q(text));
      expect(Array.isArray(page.posts)).toBe(true);
    }
    expect(ids((await search(ada, q('$regex'))).posts)).toEqual([post.id]);
    // Query-string operators are not read either.
    await search(ada, 'q[$gt]=a', 400);
  });

  test('when the input is bad, then 400 with a message', async () => {
    const ada = await app.createMember();
    const long = await search(ada, q('a'.repeat(201)), 400);
    expect(long.message).toMatch(/q must be at most 200 characters/);
    expect((await search(ada, 'q=', 400)).message).toMatch(/q is required/);
    expect((await search(ada, '', 400)).message).toMatch(/q is required/);
    expect((await search(ada, q('x', '&cursor=nonsense'), 400)).message).toMatch(/cursor/);
    expect((await search(ada, q('x', '&cursor=0123456789abcdef.0'), 400)).message).toMatch(
      /cursor/,
    );
    expect((await search(ada, q('x', '&since=2025-13-45'), 400)).message).toMatch(/since/);
    expect((await search(ada, q('x', '&jd=yes'), 400)).message).toMatch(/jd/);
    expect((await search(ada, q('x', '&from=abc'), 400)).message).toBeDefined();
    expect((await search(ada, q('x', '&since=2025-05-02&until=2025-05-01'), 400)).message).toMatch(
      /since must not be after until/,
    );
    // A word found nowhere: an empty page.
    expect(await search(ada, q('nonexistentwordzzz'))).toEqual({ posts: [], nextCursor: null });
  });

  test('when signed out, then 401', async () => {
    await app.http().get('/api/search/posts?q=x').expect(401);
  });
});

describe('post search rate limit', () => {
  test('when a member searches posts more often than allowed, then 429 says so, and another member may still search', async () => {
    const limited = app.another({
      memberLimits: {
        ...app.config.memberLimits,
        postSearches: { perMinute: 2, perDay: 0 },
      },
    });
    const ada = await app.createMember();
    const bob = await app.createMember();
    const get = (m: Member) =>
      limited.http().get('/api/search/posts?q=hello').set('Authorization', m.auth);
    await get(ada).expect(200);
    await get(ada).expect(200);
    const refused = await get(ada).expect(429);
    expect(refused.body.message).toMatch(
      /^Too many post searches: you can make at most 2 post searches per minute\./,
    );
    expect(refused.headers['retry-after']).toBeDefined();
    await get(bob).expect(200);
  });
});
