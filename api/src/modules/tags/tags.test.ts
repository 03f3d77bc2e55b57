import { MAX_FOLLOWED_TAGS, type TagPage, type TrendingTags } from '@campus/contracts';
import { TestClock } from '../../../test/clock';
import { createLogger } from '../../platform/logger';
import { feed, publish } from '../../../test/content';
import { TEST_PASSWORD, useTestApp, type Member } from '../../../test/test-app';

const app = useTestApp();

async function tagPage(viewer: Member, tag: string, query = '', status = 200) {
  const res = await app
    .http()
    .get(`/api/tags/${encodeURIComponent(tag)}${query}`)
    .set('Authorization', viewer.auth)
    .expect(status);
  return res.body as TagPage & { message?: string };
}

async function writtenAt(post: { id: number }, at: Date) {
  // Through the driver: the model keeps `createdAt` immutable.
  await app.models.Post.collection.updateOne(
    { _id: post.id as never },
    { $set: { createdAt: at } },
  );
  app.caches.feed.clear();
}

async function storedTags(id: number) {
  return (await app.models.Post.findById(id, { tags: 1 }).lean())?.tags;
}

describe('tags on posts', () => {
  test('when a post has tags in Latin with accents and in Arabic, then they are stored normalized and its tag pages find it written either way', async () => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'Soirée au #Café ce soir #مَدرسة #CAFE #école_2');
    expect(await storedTags(post.id)).toEqual(['cafe', 'مدرسة', 'ecole_2']);
    for (const written of ['Café', 'cafe', 'CAFÉ']) {
      const page = await tagPage(ada, written);
      expect(page.tag).toBe('cafe');
      expect(page.posts.map((p) => p.id)).toEqual([post.id]);
      expect(page.postsCount).toBe(1);
    }
    for (const written of ['مدرسة', 'مَدرسة', 'مدرســة']) {
      const page = await tagPage(ada, written);
      expect(page.tag).toBe('مدرسة');
      expect(page.posts.map((p) => p.id)).toEqual([post.id]);
    }
    expect((await tagPage(ada, 'École_2')).posts.map((p) => p.id)).toEqual([post.id]);
  });

  test('when a post is edited, quoted or shared as a comment, then the tags follow its own text; a plain repost has none', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'Before #alpha');
    // Read (and kept by the cache) before the edit.
    expect((await tagPage(ada, 'alpha')).posts.map((p) => p.id)).toEqual([post.id]);
    expect((await tagPage(ada, 'beta')).postsCount).toBe(0);
    await app
      .http()
      .put(`/api/posts/${post.id}`)
      .set('Authorization', ada.auth)
      .send({ content: 'After #beta #Beta' })
      .expect(200);
    expect(await storedTags(post.id)).toEqual(['beta']);
    await app.caughtUp();
    expect((await tagPage(ada, 'alpha')).posts).toEqual([]);
    expect((await tagPage(ada, 'beta')).postsCount).toBe(1);
    const quote = await app
      .http()
      .post(`/api/posts/${post.id}/repost`)
      .set('Authorization', bob.auth)
      .send({ comment: 'So true #gamma' })
      .expect(201);
    expect(await storedTags(quote.body.id)).toEqual(['gamma']);
    await app
      .http()
      .put(`/api/posts/${quote.body.id}`)
      .set('Authorization', bob.auth)
      .send({ content: 'Even truer #delta' })
      .expect(200);
    expect(await storedTags(quote.body.id)).toEqual(['delta']);
    const plain = await app
      .http()
      .post(`/api/posts/${post.id}/repost`)
      .set('Authorization', ada.auth)
      .send({})
      .expect(201);
    expect(await storedTags(plain.body.id)).toEqual([]);
    const comment = await app
      .http()
      .post(`/api/posts/${post.id}/comments`)
      .set('Authorization', bob.auth)
      .send({ content: 'Shared #epsilon', syncToTimeline: true })
      .expect(201);
    const shared = await app.models.Post.findOne({ sharedCommentId: comment.body.id }).lean();
    expect(shared?.tags).toEqual(['epsilon']);
    await app
      .http()
      .put(`/api/comments/${comment.body.id}`)
      .set('Authorization', bob.auth)
      .send({ content: 'Shared #zeta' })
      .expect(200);
    expect(await storedTags(shared!._id)).toEqual(['zeta']);
    expect((await tagPage(ada, 'alpha')).posts).toEqual([]);
    expect((await tagPage(ada, 'beta')).posts.map((p) => p.id)).toEqual([post.id]);
  });

  test('when a post has more than 10 tags, then only the first 10 distinct count', async () => {
    const ada = await app.createMember();
    const text = Array.from({ length: 12 }, (_, i) => `#t${String.fromCharCode(97 + i)}`).join(' ');
    const post = await publish(app.http, ada, text);
    expect(await storedTags(post.id)).toHaveLength(10);
    expect((await tagPage(ada, 'tl')).posts).toEqual([]);
    expect((await tagPage(ada, 'tj')).posts.map((p) => p.id)).toEqual([post.id]);
  });

  test('when posts were stored before tags existed, then the migration gives them their tags', async () => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'Old post #vintage');
    await app.models.Post.collection.updateOne({ _id: post.id as never }, { $unset: { tags: 1 } });
    const { up } = await import('../../migrations/0001-post-tags');
    const { connection } = app.database;
    await up({
      db: connection.db!,
      connection,
      models: app.models,
      logger: createLogger('silent'),
    });
    expect(await storedTags(post.id)).toEqual(['vintage']);
  });
});

describe('GET /api/tags/:tag', () => {
  test('when a tag has many posts, then they come newest first, paged by cursor with no duplicates or gaps', async () => {
    const ada = await app.createMember();
    const created: number[] = [];
    for (let i = 0; i < 45; i++) created.push((await publish(app.http, ada, `#paging ${i}`)).id);
    // Two posts at the same instant: the id decides.
    const same = new Date(Date.now() - 1000);
    await writtenAt({ id: created[10]! }, same);
    await writtenAt({ id: created[11]! }, same);
    const seen: number[] = [];
    let cursor: string | null = null;
    let first: TagPage | undefined;
    do {
      const page: TagPage = await tagPage(ada, 'paging', cursor ? `?cursor=${cursor}` : '');
      first ??= page;
      seen.push(...page.posts.map((p) => p.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(first!.postsCount).toBe(45);
    expect(new Set(seen).size).toBe(45);
    const byTime = await app.models.Post.collection
      .find({ _id: { $in: created as never[] } })
      .sort({ createdAt: -1, _id: -1 })
      .toArray();
    expect(seen).toEqual(byTime.map((p) => p._id));
  });

  test('when a tag is unknown, then an empty page; when it cannot be a tag, then 400', async () => {
    const ada = await app.createMember();
    expect(await tagPage(ada, 'nobodyusesthis')).toEqual({
      tag: 'nobodyusesthis',
      posts: [],
      nextCursor: null,
      postsCount: 0,
      isFollowed: false,
    });
    for (const bad of ['bad-tag', '123', '$where', 'a'.repeat(65), 'a b']) {
      const res = await tagPage(ada, bad, '', 400);
      expect(res.message).toBe('Invalid tag');
    }
    expect((await tagPage(ada, 'ok', '?cursor=zzz', 400)).message).toMatch(/cursor/);
  });

  test('when the viewer blocked, was blocked by or muted an author, then their tagged posts are neither listed nor counted', async () => {
    const viewer = await app.createMember();
    const blocked = await app.createMember();
    const muted = await app.createMember();
    const friend = await app.createMember();
    const shown = await publish(app.http, friend, '#screened hello');
    await publish(app.http, blocked, '#screened from the blocked');
    await publish(app.http, muted, '#screened from the muted');
    await app
      .http()
      .post(`/api/users/${viewer.id}/block`)
      .set('Authorization', blocked.auth)
      .expect(200);
    await app
      .http()
      .post(`/api/users/${muted.id}/mute`)
      .set('Authorization', viewer.auth)
      .send({})
      .expect(200);
    await app.caughtUp();
    const page = await tagPage(viewer, 'screened');
    expect(page.posts.map((p) => p.id)).toEqual([shown.id]);
    expect(page.postsCount).toBe(1);
    expect((await tagPage(friend, 'screened')).postsCount).toBe(3);
  });
});

describe('following tags', () => {
  test('when a member follows a tag, then its posts join their Following tab, and leave it when unfollowed', async () => {
    const me = await app.createMember();
    const stranger = await app.createMember();
    const before = await publish(app.http, stranger, 'Already here #robotics');
    const other = await publish(app.http, stranger, 'Unrelated #cooking');
    const follow = await app
      .http()
      .post('/api/tags/Robotics/follow')
      .set('Authorization', me.auth)
      .send({})
      .expect(200);
    expect(follow.body).toEqual({ tag: 'robotics', followed: true });
    // Idempotent.
    await app.http().post('/api/tags/robotics/follow').set('Authorization', me.auth).expect(200);
    await app.caughtUp();
    let ids = (await feed(app.http, me, '?tab=following&limit=50')).map((p) => p.id);
    expect(ids).toContain(before.id);
    expect(ids).not.toContain(other.id);
    // A new post of the tag joins at once (the cached page is forgotten).
    const after = await publish(app.http, stranger, 'New one #ROBOTICS');
    await app.caughtUp();
    ids = (await feed(app.http, me, '?tab=following&limit=50')).map((p) => p.id);
    expect(ids.slice(0, 2)).toEqual([after.id, before.id]);
    expect((await tagPage(me, 'robotics')).isFollowed).toBe(true);
    const followed = await app.http().get('/api/tags/followed').set('Authorization', me.auth);
    expect(followed.body).toEqual({ tags: ['robotics'] });
    const unfollow = await app
      .http()
      .delete('/api/tags/robotics/follow')
      .set('Authorization', me.auth)
      .expect(200);
    expect(unfollow.body).toEqual({ tag: 'robotics', followed: false });
    await app.http().delete('/api/tags/robotics/follow').set('Authorization', me.auth).expect(200);
    await app.caughtUp();
    ids = (await feed(app.http, me, '?tab=following&limit=50')).map((p) => p.id);
    expect(ids).not.toContain(before.id);
    expect(ids).not.toContain(after.id);
  });

  test('when a followed tag has more posts than a page, then Following pages them with the followed authors, newest first', async () => {
    const me = await app.createMember();
    const friend = await app.createMember();
    const stranger = await app.createMember();
    await app.http().post(`/api/users/${friend.id}/follow`).set('Authorization', me.auth);
    await app.http().post('/api/tags/mixing/follow').set('Authorization', me.auth).send({});
    const expected: number[] = [];
    for (let i = 0; i < 15; i++) {
      expected.push((await publish(app.http, stranger, `#mixing ${i}`)).id);
      expected.push((await publish(app.http, friend, `friend ${i} #mixing`)).id);
    }
    await publish(app.http, stranger, 'not followed');
    await app.caughtUp();
    const page1 = await feed(app.http, me, '?tab=following&limit=20&offset=0');
    const page2 = await feed(app.http, me, '?tab=following&limit=20&offset=20');
    expect([...page1, ...page2].map((p) => p.id)).toEqual([...expected].reverse());
  });

  test('when a member deletes their account, then their tag follows go with it', async () => {
    const me = await app.createMember();
    await app.http().post('/api/tags/leaving/follow').set('Authorization', me.auth).expect(200);
    expect(await app.models.TagFollow.countDocuments({ userId: me.id })).toBe(1);
    await app
      .http()
      .delete(`/api/users/${me.id}`)
      .set('Authorization', me.auth)
      .send({ password: TEST_PASSWORD })
      .expect(204);
    expect(await app.models.TagFollow.countDocuments({ userId: me.id })).toBe(0);
  });

  test('when a member follows more tags than allowed, then 400 naming the limit', async () => {
    const me = await app.createMember();
    await app.models.TagFollow.insertMany(
      Array.from({ length: MAX_FOLLOWED_TAGS }, (_, i) => ({ userId: me.id, tag: `many${i}` })),
    );
    const res = await app
      .http()
      .post('/api/tags/onemore/follow')
      .set('Authorization', me.auth)
      .send({})
      .expect(400);
    expect(res.body.message).toBe(`You can follow at most ${MAX_FOLLOWED_TAGS} tags`);
    // Following one already followed is still fine.
    await app.http().post('/api/tags/many3/follow').set('Authorization', me.auth).expect(200);
    await app.http().post('/api/tags/bad-tag/follow').set('Authorization', me.auth).expect(400);
  });
});

describe('GET /api/tags/trending and /api/search/tags', () => {
  test('when tags are used today, then trending ranks them by distinct authors in the app time zone, leaving out hidden members', async () => {
    // 10:00 UTC on 5 June is 19:00 in Tokyo: "today" there began at 15:00 UTC on 4 June.
    const clock = new TestClock();
    clock.freeze(Date.parse('2026-06-05T10:00:00Z'));
    const tokyo = app.another({ timezone: 'Asia/Tokyo' }, clock);
    const [a, b, c, viewer] = await Promise.all([
      app.createMember(),
      app.createMember(),
      app.createMember(),
      app.createMember(),
    ]);
    const at = async (member: Member, text: string, iso: string) =>
      writtenAt(await publish(app.http, member, text), new Date(iso));
    // #many: three authors today; #busy: one author, four posts; #yesterday: before midnight in Tokyo.
    await at(a, '#many one', '2026-06-04T16:00:00Z');
    await at(b, '#many two', '2026-06-05T09:00:00Z');
    await at(c, '#many three #busy', '2026-06-05T01:00:00Z');
    for (let i = 0; i < 3; i++) await at(c, `#busy ${i}`, '2026-06-05T02:00:00Z');
    await at(a, '#twice', '2026-06-05T03:00:00Z');
    await at(b, '#twice', '2026-06-05T03:00:00Z');
    await at(a, '#yesterday', '2026-06-04T14:59:00Z');
    await at(b, '#yesterday', '2026-06-04T14:00:00Z');
    const trending = async (m: Member) =>
      (await tokyo.http().get('/api/tags/trending').set('Authorization', m.auth).expect(200))
        .body as TrendingTags;
    const seen = await trending(viewer);
    expect(seen.day).toBe('2026-06-05');
    expect(seen.timeZone).toBe('Asia/Tokyo');
    expect(seen.tags).toEqual([
      { tag: 'many', authorsCount: 3, postsCount: 3 },
      { tag: 'twice', authorsCount: 2, postsCount: 2 },
      { tag: 'busy', authorsCount: 1, postsCount: 4 },
    ]);
    // A member the viewer blocked does not count for them.
    await app.http().post(`/api/users/${a.id}/block`).set('Authorization', viewer.auth).expect(200);
    await app.caughtUp();
    const { tags } = await trending(viewer);
    expect(tags.find((t) => t.tag === 'many')).toEqual({
      tag: 'many',
      authorsCount: 2,
      postsCount: 2,
    });
    expect(tags.find((t) => t.tag === 'twice')?.authorsCount).toBe(1);
  });

  test('when tags are searched by prefix, then the most used come first; a leading # is ignored', async () => {
    const ada = await app.createMember();
    await publish(app.http, ada, '#prefixone #prefixtwo');
    await publish(app.http, ada, '#prefixtwo #Préfixthree');
    await publish(app.http, ada, '#other');
    const find = async (q: string) =>
      (
        await app
          .http()
          .get(`/api/search/tags?q=${encodeURIComponent(q)}`)
          .set('Authorization', ada.auth)
          .expect(200)
      ).body;
    expect(await find('#PREFIX')).toEqual({
      tags: [
        { tag: 'prefixtwo', postsCount: 2 },
        { tag: 'prefixone', postsCount: 1 },
        { tag: 'prefixthree', postsCount: 1 },
      ],
    });
    expect(await find('$where')).toEqual({ tags: [] });
    expect(await find('.*')).toEqual({ tags: [] });
    await app.http().get('/api/search/tags?q=').set('Authorization', ada.auth).expect(400);
  });
});
