import type { Post as PostView } from '@campus/contracts';
import { ReadCache } from '../../platform/read-cache';
import { feed, publish } from '../../../test/content';
import { countQueries } from '../../../test/query-counter';
import { startOtherProcessApp, useTestApp, type Member } from '../../../test/test-app';

describe('ReadCache', () => {
  afterEach(() => jest.useRealTimers());

  test('when a write lands while a read is under way, then that read is not stored', () => {
    const cache = new ReadCache<string, number>(1_000, 10);
    const mark = cache.mark();
    cache.delete('page'); // an event forgets it (another key's: platform/read-cache.test.ts)
    cache.set('page', 1, mark);
    expect(cache.get('page')).toBeUndefined();
    cache.set('page', 2, cache.mark());
    expect(cache.get('page')).toBe(2);
  });

  test('when an entry outlives its time to live, then it is gone', () => {
    jest.useFakeTimers({ now: 0 });
    const cache = new ReadCache<string, number>(1_000, 10);
    cache.set('a', 1, cache.mark());
    jest.setSystemTime(999);
    expect(cache.get('a')).toBe(1);
    jest.setSystemTime(1_000);
    expect(cache.get('a')).toBeUndefined();
  });

  test('when it is full, then the oldest entry goes first; a time to live of 0 stores nothing', () => {
    const cache = new ReadCache<number, number>(1_000, 2);
    for (const n of [1, 2, 3]) cache.set(n, n, cache.mark());
    expect([cache.get(1), cache.get(2), cache.get(3)]).toEqual([undefined, 2, 3]);
    const off = new ReadCache<number, number>(0, 2);
    off.set(4, 4, off.mark());
    expect(off.size).toBe(0);
  });
});

describe('feed read caches (through the API)', () => {
  // Nothing kept expires during a test, however slow the machine: what these tests count is what
  // events forget (expiry is the ReadCache tests' above).
  const app = useTestApp({ readCacheMs: 600_000, authorCacheMs: 600_000 });
  const ids = (posts: PostView[]) => posts.map((p) => p.id);
  const byId = (posts: PostView[], id: number) => posts.find((p) => p.id === id);
  const TABS = ['', '?tab=following', '?tab=jd', '?topFilter=true'];

  test('when the same pages are read again, then they come without a database round trip', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    await app.http().post(`/api/users/${bob.id}/follow`).set('Authorization', ada.auth);
    const original = await publish(app.http, bob, 'an original');
    await app.http().post(`/api/posts/${original.id}/repost`).set('Authorization', ada.auth);
    for (const query of TABS) {
      await feed(app.http, ada, query);
      const { result, queries } = await countQueries(app.database.connection, () =>
        feed(app.http, ada, query),
      );
      expect({ query, queries }).toEqual({ query, queries: [] });
      if (query !== '?tab=jd') expect(ids(result)).toContain(original.id);
    }
  });

  test('when many viewers miss the same page at once, then it is read from the database once (single flight)', async () => {
    const viewers: Array<Awaited<ReturnType<typeof app.createMember>>> = [];
    for (let i = 0; i < 5; i++) viewers.push(await app.createMember());
    const author = await app.createMember();
    await publish(app.http, author, 'read once');
    const postReads = (queries: string[]) => queries.filter((q) => q.startsWith('posts.')).length;
    for (const v of viewers) await feed(app.http, v, ''); // their accounts and flags known
    app.caches.feed.clear();
    const one = await countQueries(app.database.connection, () => feed(app.http, viewers[0]!, ''));
    expect(postReads(one.queries)).toBeGreaterThan(0);
    app.caches.feed.clear();
    const many = await countQueries(app.database.connection, () =>
      Promise.all(viewers.map((v) => feed(app.http, v, ''))),
    );
    expect(postReads(many.queries)).toBe(postReads(one.queries));
    for (const page of many.result) expect(ids(page)).toEqual(ids(one.result));
  });

  test('when many viewers miss the same tag page at once, then its posts and its count are each read once', async () => {
    const viewers: Member[] = [];
    for (let i = 0; i < 5; i++) viewers.push(await app.createMember());
    const author = await app.createMember();
    await publish(app.http, author, 'counted once #singleflight');
    const tagPage = (viewer: Member) =>
      app.http().get('/api/tags/singleflight').set('Authorization', viewer.auth).expect(200);
    const postReads = (queries: string[]) => queries.filter((q) => q.startsWith('posts.')).length;
    for (const v of viewers) await tagPage(v); // their accounts, flags and followed tags known
    app.caches.feed.clear();
    const one = await countQueries(app.database.connection, () => tagPage(viewers[0]!));
    // the page and the count
    expect(postReads(one.queries)).toBeGreaterThanOrEqual(2);
    app.caches.feed.clear();
    const many = await countQueries(app.database.connection, () =>
      Promise.all(viewers.map(tagPage)),
    );
    expect(postReads(many.queries)).toBe(postReads(one.queries));
    for (const page of many.result) expect(page.body.postsCount).toBe(1);
  });

  test('when the viewer likes, unlikes and reposts, then the next read shows it at once', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, bob, 'like me');
    expect(byId(await feed(app.http, ada), post.id)).toMatchObject({
      isLiked: false,
      likesCount: 0,
    });
    await app.http().post(`/api/posts/${post.id}/like`).set('Authorization', ada.auth).expect(200);
    expect(byId(await feed(app.http, ada), post.id)).toMatchObject({
      isLiked: true,
      likesCount: 1,
    });
    // Another viewer sees the count, not ada's like.
    expect(byId(await feed(app.http, bob), post.id)).toMatchObject({
      isLiked: false,
      likesCount: 1,
    });
    await app.http().post(`/api/posts/${post.id}/like`).set('Authorization', ada.auth).expect(200);
    expect(byId(await feed(app.http, ada), post.id)).toMatchObject({
      isLiked: false,
      likesCount: 0,
    });
    await app
      .http()
      .post(`/api/posts/${post.id}/repost`)
      .set('Authorization', ada.auth)
      .send({})
      .expect(201);
    const after = await feed(app.http, ada);
    expect(byId(after, post.id)).toMatchObject({ isReposted: true, repostsCount: 1 });
    expect(after[0]).toMatchObject({ originalPostId: post.id, author: { id: ada.id } });
  });

  test('when posts are published and deleted, then every tab shows it at once', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    await app.http().post(`/api/users/${bob.id}/follow`).set('Authorization', ada.auth);
    for (const query of TABS) await feed(app.http, ada, query);
    const fresh = await publish(app.http, bob, 'hiring now', { isJdTagged: true });
    for (const query of TABS) expect(ids(await feed(app.http, ada, query))).toContain(fresh.id);
    await app.http().delete(`/api/posts/${fresh.id}`).set('Authorization', bob.auth).expect(200);
    for (const query of TABS) expect(ids(await feed(app.http, ada, query))).not.toContain(fresh.id);
  });

  test('when a member posts, then For You and JD read only the newer posts, and the Following pages of those who do not follow the author stay cached', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const dan = await app.createMember();
    await app.http().post(`/api/users/${bob.id}/follow`).set('Authorization', ada.auth);
    for (let i = 0; i < 25; i++)
      await publish(app.http, bob, `post ${i}`, { isJdTagged: i % 2 === 0 });
    const pages = ['', '?offset=20', '?tab=jd', '?tab=following'];
    const before = new Map<string, number[]>();
    for (const query of pages) before.set(query, ids(await feed(app.http, ada, query)));
    await feed(app.http, dan, '?tab=following');

    const fresh = await publish(app.http, dan, 'from dan', { isJdTagged: true });
    const postReads = (queries: string[]) => queries.filter((q) => q.startsWith('posts.'));
    for (const query of ['', '?tab=jd']) {
      const { result, queries } = await countQueries(app.database.connection, () =>
        feed(app.http, ada, query),
      );
      // The new post on top, the rest moved down by one; one read of what is newer.
      expect(ids(result)).toEqual([fresh.id, ...before.get(query)!].slice(0, 20));
      expect(postReads(queries)).toEqual(['posts.find']);
    }
    // Page 2 starts with what was the last post of page 1.
    const second = ids(await feed(app.http, ada, '?offset=20'));
    expect(second[0]).toBe(before.get('')![19]);
    // Ada does not follow dan: her Following page is still cached; dan's own shows his post.
    // (Authors may be read again: on a slow machine this test outlives AUTHOR_CACHE_MS.)
    const pageReads = (queries: string[]) => queries.filter((q) => !q.startsWith('users.'));
    const following = await countQueries(app.database.connection, () =>
      feed(app.http, ada, '?tab=following'),
    );
    expect(pageReads(following.queries)).toEqual([]);
    expect(ids(following.result)).toEqual(before.get('?tab=following'));
    expect(ids(await feed(app.http, dan, '?tab=following'))).toContain(fresh.id);

    // A post by someone ada follows reaches her Following page at once.
    const followed = await publish(app.http, bob, 'from bob');
    expect(ids(await feed(app.http, ada, '?tab=following'))[0]).toBe(followed.id);
    // Dan's follow changes his Following pages only.
    await feed(app.http, ada, '?tab=following');
    await app.http().post(`/api/users/${bob.id}/follow`).set('Authorization', dan.auth);
    expect(
      pageReads(
        (await countQueries(app.database.connection, () => feed(app.http, ada, '?tab=following')))
          .queries,
      ),
    ).toEqual([]);
    expect(ids(await feed(app.http, dan, '?tab=following'))).toContain(followed.id);
  });

  test('when two viewers read the same cached page, then each gets their own likes, reposts and delete rights', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const adas = await publish(app.http, ada, 'by ada');
    const bobs = await publish(app.http, bob, 'by bob');
    await app.http().post(`/api/posts/${bobs.id}/like`).set('Authorization', ada.auth).expect(200);
    await app
      .http()
      .post(`/api/posts/${adas.id}/repost`)
      .set('Authorization', bob.auth)
      .send({})
      .expect(201);
    for (let round = 0; round < 2; round++) {
      const asAda = await feed(app.http, ada);
      const asBob = await feed(app.http, bob);
      expect(byId(asAda, adas.id)).toMatchObject({ canDelete: true, isReposted: false });
      expect(byId(asAda, bobs.id)).toMatchObject({
        canDelete: false,
        isLiked: true,
        likesCount: 1,
      });
      expect(byId(asBob, adas.id)).toMatchObject({ canDelete: false, isReposted: true });
      expect(byId(asBob, bobs.id)).toMatchObject({
        canDelete: true,
        isLiked: false,
        likesCount: 1,
      });
      // Bob's repost shows ada's post as its original, with each viewer's flags on it too.
      expect(asAda[0]).toMatchObject({
        author: { id: bob.id },
        canDelete: false,
        originalPost: { id: adas.id, canDelete: true, isReposted: false },
      });
      expect(asBob[0]).toMatchObject({
        canDelete: true,
        originalPost: { id: adas.id, canDelete: false, isReposted: true },
      });
    }
  });

  test('when the viewer follows and unfollows, then Following changes at once', async () => {
    const ada = await app.createMember();
    const cy = await app.createMember();
    const post = await publish(app.http, cy, 'from cy');
    expect(ids(await feed(app.http, ada, '?tab=following'))).not.toContain(post.id);
    await app.http().post(`/api/users/${cy.id}/follow`).set('Authorization', ada.auth);
    expect(ids(await feed(app.http, ada, '?tab=following'))).toContain(post.id);
    await app.http().post(`/api/users/${cy.id}/follow`).set('Authorization', ada.auth);
    expect(ids(await feed(app.http, ada, '?tab=following'))).not.toContain(post.id);
  });

  test('when a post gathers likes, then Top Posts reorders at once', async () => {
    const ada = await app.createMember();
    const first = await publish(app.http, ada, 'top one');
    const second = await publish(app.http, ada, 'top two');
    const top = () => feed(app.http, ada, '?topFilter=true&limit=50');
    const order = (posts: PostView[]) =>
      ids(posts).filter((id) => [first.id, second.id].includes(id));
    const before = order(await top());
    const behind = before[1]!;
    for (let i = 0; i < 3; i++) {
      const fan = await app.createMember();
      await app.http().post(`/api/posts/${behind}/like`).set('Authorization', fan.auth);
    }
    expect(order(await top())[0]).toBe(behind);
  });

  /** The `posts` finds `fn` sends, by their filter's fields (`_id`: posts by id). */
  async function postFinds(fn: () => Promise<unknown>): Promise<string[]> {
    const finds: string[] = [];
    const { connection } = app.database;
    connection.set('debug', (collection: string, method: string, filter: unknown) => {
      if (collection === 'posts')
        finds.push(`${method} ${Object.keys((filter ?? {}) as object).join(',')}`);
    });
    try {
      await fn();
    } finally {
      connection.set('debug', false);
    }
    return finds;
  }

  test('when likes, unlikes, comments, a deletion and new posts move posts, then the kept Top Posts order is the order the database gives', async () => {
    const uncached = app.another({ readCacheMs: 0, authorCacheMs: 0 });
    const members = await Promise.all([1, 2, 3, 4].map(() => app.createMember()));
    const [ada, bob, cy, dee] = members as [Member, Member, Member, Member];
    const posts: PostView[] = [];
    for (let i = 0; i < 6; i++) posts.push(await publish(app.http, members[i % 4]!, `ranked ${i}`));
    const top = async (http: typeof app.http) =>
      ids(await feed(http, ada, '?topFilter=true&limit=50'));
    const like = (who: Member, post: PostView) =>
      app.http().post(`/api/posts/${post.id}/like`).set('Authorization', who.auth).expect(200);
    const steps: Array<() => Promise<unknown>> = [
      () => like(bob, posts[0]!),
      () => like(cy, posts[0]!),
      () => like(dee, posts[3]!),
      () =>
        app
          .http()
          .post(`/api/posts/${posts[5]!.id}/comments`)
          .set('Authorization', bob.auth)
          .send({ content: 'up you go' })
          .expect(201),
      () => like(bob, posts[0]!), // an unlike: back down by one
      () => like(ada, posts[2]!),
      () => app.http().delete(`/api/posts/${posts[3]!.id}`).set('Authorization', dee.auth),
      async () => posts.push(await publish(app.http, cy, 'a late one')),
      () => like(dee, posts[6]!),
      () => like(ada, posts[6]!),
    ];
    await top(app.http); // the order is kept from here on
    for (const step of steps) {
      await step();
      expect(await top(app.http)).toEqual(await top(uncached.http));
    }
  });

  test('when a post is liked, then the next Top Posts page reads that post again, not the whole tab', async () => {
    const ada = await app.createMember();
    const fan = await app.createMember();
    const first = await publish(app.http, ada, 'ranked one');
    const second = await publish(app.http, ada, 'ranked two');
    const top = () => feed(app.http, ada, '?topFilter=true&limit=50');
    await top();
    expect((await countQueries(app.database.connection, top)).queries).toEqual([]);
    await app.http().post(`/api/posts/${first.id}/like`).set('Authorization', fan.auth);
    let result: PostView[] = [];
    // The liked post alone, by _id: no aggregate, no read of today's posts.
    expect(await postFinds(async () => (result = await top()))).toEqual(['find _id']);
    const liked = byId(result, first.id)!;
    expect(liked.likesCount).toBe(1);
    expect(ids(result).indexOf(first.id)).toBeLessThan(ids(result).indexOf(second.id));
  });

  test('when a post that is not among today’s is liked, then the kept Top Posts order is served as it is (no post read again)', async () => {
    const ada = await app.createMember();
    const fan = await app.createMember();
    const today = await publish(app.http, ada, 'ranked today');
    // A post of two days ago (written behind mongoose: its echo names an old post, which joins
    // nothing).
    const stored = await app.models.Post.findById(today.id).lean();
    const oldId = today.id + 1_000_000;
    await app.models.Post.collection.insertOne({
      ...stored!,
      _id: oldId,
      content: 'from two days ago',
      createdAt: new Date(Date.now() - 2 * 24 * 3600_000),
    } as never);
    const top = () => feed(app.http, ada, '?topFilter=true&limit=50');
    expect(ids(await top())).not.toContain(oldId);
    await app.http().post(`/api/posts/${oldId}/like`).set('Authorization', fan.auth).expect(200);
    expect(await postFinds(top)).toEqual([]);
    await app.http().post(`/api/posts/${today.id}/like`).set('Authorization', fan.auth).expect(200);
    expect(await postFinds(top)).toEqual(['find _id']);
  });

  test('when a member posts, then the new post joins the kept Top Posts ranking without a read of the tab', async () => {
    const ada = await app.createMember();
    await publish(app.http, ada, 'already there');
    const top = () => feed(app.http, ada, '?topFilter=true&limit=50');
    await top();
    const fresh = await publish(app.http, ada, 'just written');
    let result: PostView[] = [];
    expect(await postFinds(async () => (result = await top()))).toEqual(['find _id']);
    expect(ids(result)).toContain(fresh.id);
  });

  test('when a member posts, then the answer presents the new post without reading their likes or reposts', async () => {
    const ada = await app.createMember();
    await feed(app.http, ada); // the caller's account and author are read once here
    const { result, queries } = await countQueries(app.database.connection, () =>
      app.http().post('/api/posts').set('Authorization', ada.auth).send({ content: 'mine' }),
    );
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({
      content: 'mine',
      isLiked: false,
      isReposted: false,
      canDelete: true,
      originalPost: null,
    });
    expect(queries.filter((q) => q.startsWith('likes.') || q.startsWith('reposts.'))).toEqual([]);
  });

  test('when a page’s posts have no likes or no reposts, then the viewer’s flags are not looked up for them; once one is liked, its likes are', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    await app.http().post(`/api/users/${bob.id}/follow`).set('Authorization', ada.auth);
    const quiet = await publish(app.http, bob, 'nobody liked this');
    const liked = await publish(app.http, bob, 'liked by bob');
    await app.http().post(`/api/posts/${liked.id}/like`).set('Authorization', bob.auth).expect(200);
    await feed(app.http, ada, '?tab=following'); // the accounts and authors are read once here
    app.caches.feed.clear();
    // The page is read again, its posts held; of them only `liked` has a like, and none a repost.
    const { result, queries } = await countQueries(app.database.connection, () =>
      feed(app.http, ada, '?tab=following'),
    );
    expect(queries.filter((q) => q.startsWith('reposts.'))).toEqual([]);
    expect(queries.filter((q) => q.startsWith('likes.'))).toHaveLength(1);
    expect(byId(result, quiet.id)).toMatchObject({ isLiked: false, isReposted: false });
    expect(byId(result, liked.id)).toMatchObject({ isLiked: false, likesCount: 1 });
    // Ada likes the quiet post: its count moves, so her flags for it come from her likes again.
    await app.http().post(`/api/posts/${quiet.id}/like`).set('Authorization', ada.auth).expect(200);
    expect(byId(await feed(app.http, ada, '?tab=following'), quiet.id)).toMatchObject({
      isLiked: true,
      likesCount: 1,
    });
    expect(byId(await feed(app.http, bob), liked.id)).toMatchObject({ isLiked: true });
  });

  test('when the API keeps nothing (READ_CACHE_MS=0), then flags are looked up only for the posts it read with likes or reposts', async () => {
    const uncached = app.another({ readCacheMs: 0, authorCacheMs: 0 });
    const ada = await app.createMember();
    const bob = await app.createMember();
    await app.http().post(`/api/users/${bob.id}/follow`).set('Authorization', ada.auth);
    const quiet = await publish(app.http, bob, 'nobody liked this');
    const liked = await publish(app.http, bob, 'liked by ada');
    await app.http().post(`/api/posts/${liked.id}/like`).set('Authorization', ada.auth).expect(200);
    const { result, queries } = await countQueries(app.database.connection, () =>
      feed(uncached.http, ada, '?tab=following'),
    );
    expect(queries.filter((q) => q.startsWith('reposts.'))).toEqual([]);
    expect(queries.filter((q) => q.startsWith('likes.'))).toHaveLength(1);
    expect(byId(result, quiet.id)).toMatchObject({ isLiked: false, likesCount: 0 });
    expect(byId(result, liked.id)).toMatchObject({ isLiked: true, likesCount: 1 });
    await app.http().post(`/api/posts/${quiet.id}/repost`).set('Authorization', ada.auth);
    expect(byId(await feed(uncached.http, ada, '?tab=following'), quiet.id)).toMatchObject({
      isReposted: true,
      repostsCount: 1,
    });
  });

  test('when a caller holds a post read before its first like, then its flags answer that call only and are looked up next time', async () => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'read, then liked');
    const before = (await app.caches.feed.postsById([post.id])).get(post.id)!;
    expect(before.likesCount).toBe(0);
    // The like forgets the post here: the cache no longer holds it, the caller still does.
    await app.http().post(`/api/posts/${post.id}/like`).set('Authorization', ada.auth).expect(200);
    const held = await countQueries(app.database.connection, () =>
      app.caches.feed.viewerFlags(ada.id, [post.id], [before]),
    );
    expect(held.queries.filter((q) => q.startsWith('likes.'))).toEqual([]);
    expect(held.result.liked.has(post.id)).toBe(false); // as the held post says: no likes
    const next = await countQueries(app.database.connection, () =>
      app.caches.feed.viewerFlags(ada.id, [post.id]),
    );
    expect(next.queries.filter((q) => q.startsWith('likes.'))).toHaveLength(1);
    expect(next.result.liked.has(post.id)).toBe(true);
  });

  test('when a second app in the process has READ_CACHE_MS=0, then it reads through while the first keeps caching', async () => {
    const ada = await app.createMember();
    await publish(app.http, ada, 'cached here');
    await feed(app.http, ada);
    const uncached = app.another({ readCacheMs: 0, authorCacheMs: 0 });
    await feed(uncached.http, ada);
    // The second app asks the database every time...
    const second = await countQueries(app.database.connection, () => feed(uncached.http, ada));
    expect(second.queries.filter((q) => q.startsWith('posts.'))).not.toHaveLength(0);
    // ...while the first answers from its cache, configured as before.
    const first = await countQueries(app.database.connection, () => feed(app.http, ada));
    expect(first.queries).toEqual([]);

    // A write through either app reaches both apps' caches (one database, one outbox).
    const fresh = await publish(uncached.http, ada, 'through the second app');
    await app.caughtUp();
    expect(ids(await feed(app.http, ada))).toContain(fresh.id);
  });

  test('when another API process (its own connection, caches kept for a minute) serves the feed, then a like, a new post and a profile edit made here are in its next page', async () => {
    const other = await startOtherProcessApp(app);
    const viaOther = other.http;
    try {
      const ada = await app.createMember();
      const post = await publish(app.http, ada, 'liked elsewhere');
      // Cached there, and no longer read from the database.
      expect(byId(await feed(viaOther, ada), post.id)).toMatchObject({ likesCount: 0 });
      expect((await countQueries(other.connection, () => feed(viaOther, ada))).queries).toEqual([]);

      await app
        .http()
        .post(`/api/posts/${post.id}/like`)
        .set('Authorization', ada.auth)
        .expect(200);
      const fresh = await publish(app.http, ada, 'posted elsewhere');
      await app
        .http()
        .put(`/api/users/${ada.id}`)
        .set('Authorization', ada.auth)
        .send({ name: 'Ada Renamed' })
        .expect((res) => expect(res.body).toMatchObject({ name: 'Ada Renamed' }));

      await other.caughtUp();
      const seen = await feed(viaOther, ada);
      expect(byId(seen, post.id)).toMatchObject({ likesCount: 1, isLiked: true });
      expect(ids(seen)).toContain(fresh.id);
      expect(byId(seen, post.id)?.author.name).toBe('Ada Renamed');
    } finally {
      await other.close();
    }
  });

  test('when a member unlikes and unfollows through another process, then only their flags and Following pages are read again there', async () => {
    const other = await startOtherProcessApp(app);
    const viaOther = other.http;
    const follow = (member: { auth: string }, id: number) =>
      app.http().post(`/api/users/${id}/follow`).set('Authorization', member.auth).expect(200);
    const like = (member: { auth: string }, id: number) =>
      app.http().post(`/api/posts/${id}/like`).set('Authorization', member.auth).expect(200);
    try {
      const [ada, bob, cy] = [
        await app.createMember(),
        await app.createMember(),
        await app.createMember(),
      ];
      const post = await publish(app.http, cy, 'liked, then unliked elsewhere');
      for (const member of [ada, bob]) {
        await like(member, post.id);
        await follow(member, cy.id);
      }
      const pages = (member: typeof ada) => [
        () => feed(viaOther, member),
        () => feed(viaOther, member, '?tab=following'),
      ];
      // Kept there with both likes and follows, once their events reached it.
      await other.caughtUp();
      for (const member of [ada, bob]) {
        expect(byId(await feed(viaOther, member, '?tab=following'), post.id)?.isLiked).toBe(true);
        for (const read of pages(member)) await read();
      }
      const kept = await countQueries(other.connection, async () => {
        for (const member of [ada, bob]) for (const read of pages(member)) await read();
      });
      expect(kept.queries).toEqual([]);

      // Ada's unlike and unfollow, through this app; their events name her.
      await like(ada, post.id);
      await follow(ada, cy.id);
      await other.caughtUp();
      expect(byId(await feed(viaOther, ada, '?tab=following'), post.id)).toBeUndefined();
      expect(byId(await feed(viaOther, ada), post.id)).toMatchObject({ isLiked: false });

      // Bob's flags and whom he follows are still kept: his pages read no likes, reposts or
      // follows (the post itself is read again, its count moved).
      const bobs = await countQueries(other.connection, async () => {
        for (const read of pages(bob)) await read();
      });
      expect(bobs.queries.filter((q) => /^(likes|reposts|follows)\./.test(q))).toEqual([]);
      expect(byId(await feed(viaOther, bob), post.id)).toMatchObject({
        isLiked: true,
        likesCount: 1,
      });
    } finally {
      await other.close();
    }
  });

  test('when an app is closed, then it no longer hears the events of its database', async () => {
    const ada = await app.createMember();
    const closing = app.another({});
    await feed(closing.http, ada);
    await closing.app.close();
    const fresh = await publish(app.http, ada, 'after the close');
    // The closed app's caches were not told (it is done with); the open app's were.
    expect(ids(await feed(closing.http, ada))).not.toContain(fresh.id);
    expect(ids(await feed(app.http, ada))).toContain(fresh.id);
  });
});
