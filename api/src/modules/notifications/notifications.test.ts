import { useTestApp } from '../../../test/test-app';
import { publish } from '../../../test/content';

const app = useTestApp();

async function setup() {
  const ada = await app.createMember({ name: 'Ada' });
  const bob = await app.createMember({ name: 'Bob' });
  const post = await publish(app.http, ada, 'p'.repeat(150));
  await app.http().post(`/api/posts/${post.id}/like`).set('Authorization', bob.auth).expect(200);
  await app.http().post(`/api/users/${ada.id}/follow`).set('Authorization', bob.auth).expect(200);
  await app
    .http()
    .post(`/api/posts/${post.id}/repost`)
    .set('Authorization', bob.auth)
    .send({})
    .expect(201);
  return { ada, bob, post };
}

describe('GET /api/notifications', () => {
  test("when a member's post is liked, reposted and they are followed, then they see each, newest first, with actor and post", async () => {
    const { ada, bob, post } = await setup();
    const res = await app
      .http()
      .get('/api/notifications')
      .set('Authorization', ada.auth)
      .expect(200);
    expect(res.body.map((n: { type: string }) => n.type)).toEqual(['repost', 'follow', 'like']);
    expect(res.body[2]).toMatchObject({
      isRead: false,
      actor: { id: bob.id, name: 'Bob', avatarUrl: null },
      post: { id: post.id, content: post.content },
    });
    // Each type carries exactly its own fields: a follow has no post.
    expect(res.body[1]).toEqual({
      id: res.body[1].id,
      type: 'follow',
      isRead: false,
      createdAt: res.body[1].createdAt,
      actor: { id: bob.id, name: 'Bob', avatarUrl: null },
    });
    // Bob sees none of Ada's notifications.
    const asBob = await app
      .http()
      .get('/api/notifications')
      .set('Authorization', bob.auth)
      .expect(200);
    expect(asBob.body).toEqual([]);
  });
});

describe('PUT /api/notifications/:id/read', () => {
  test('when the recipient marks one read, then only that one is read', async () => {
    const { ada } = await setup();
    const list = await app.http().get('/api/notifications').set('Authorization', ada.auth);
    const first = list.body[0].id;
    await app
      .http()
      .put(`/api/notifications/${first}/read`)
      .set('Authorization', ada.auth)
      .expect(200);
    const after = await app.http().get('/api/notifications').set('Authorization', ada.auth);
    expect(after.body.filter((n: { isRead: boolean }) => !n.isRead)).toHaveLength(2);
  });

  test("when someone marks another member's notification read, then it is a 404 and it stays unread", async () => {
    const { ada, bob } = await setup();
    const list = await app.http().get('/api/notifications').set('Authorization', ada.auth);
    const target = list.body[0].id;
    await app
      .http()
      .put(`/api/notifications/${target}/read`)
      .set('Authorization', bob.auth)
      .expect(404);
    expect((await app.models.Notification.findById(target).lean())?.isRead).toBe(false);
  });

  test.each(['abc', '0', '99999999'])('when the id is %s, then it is a 404', async (id) => {
    const ada = await app.createMember();
    await app
      .http()
      .put(`/api/notifications/${id}/read`)
      .set('Authorization', ada.auth)
      .expect(404);
  });
});

describe('PUT /api/notifications/read-all', () => {
  test("when the recipient marks all read, then all of theirs are read and nobody else's", async () => {
    const { ada, bob } = await setup();
    const carol = await app.createMember();
    await app
      .http()
      .post(`/api/users/${bob.id}/follow`)
      .set('Authorization', carol.auth)
      .expect(200);
    const res = await app
      .http()
      .put('/api/notifications/read-all')
      .set('Authorization', ada.auth)
      .expect(200);
    expect(res.body).toEqual({ updated: 3 });
    expect(await app.models.Notification.countDocuments({ userId: ada.id, isRead: false })).toBe(0);
    expect(await app.models.Notification.countDocuments({ userId: bob.id, isRead: false })).toBe(1);
  });

  test('when there is no token, then it is a 401', async () => {
    await app.http().put('/api/notifications/read-all').expect(401);
    await app.http().get('/api/notifications').expect(401);
  });
});

describe('comment and reply notifications', () => {
  test('when a member comments and another replies, then each notification carries what was said, at most 100 characters', async () => {
    const ada = await app.createMember({ name: 'Ada' });
    const bob = await app.createMember({ name: 'Bob' });
    const post = await publish(app.http, ada, 'The post itself');
    const said = `${'Great point about recursion! '.repeat(5)}`.trim();
    const comment = await app
      .http()
      .post(`/api/posts/${post.id}/comments`)
      .set('Authorization', bob.auth)
      .send({ content: said })
      .expect(201);
    const reply = await app
      .http()
      .post(`/api/posts/${post.id}/comments`)
      .set('Authorization', ada.auth)
      .send({ content: 'Thanks Bob', parentId: comment.body.id })
      .expect(201);

    const toAda = await app.http().get('/api/notifications').set('Authorization', ada.auth);
    expect(toAda.body).toEqual([
      expect.objectContaining({
        type: 'comment',
        commentText: said.slice(0, 100),
        // The post page scrolls to it (issue 41).
        commentId: comment.body.id,
        post: { id: post.id, content: 'The post itself' },
      }),
    ]);
    expect(said.length).toBeGreaterThan(100);
    const toBob = await app.http().get('/api/notifications').set('Authorization', bob.auth);
    expect(toBob.body).toEqual([
      expect.objectContaining({
        type: 'reply',
        commentText: 'Thanks Bob',
        commentId: reply.body.id,
        actor: expect.objectContaining({ id: ada.id }),
      }),
    ]);
  });
});

describe('a like on a plain repost', () => {
  test('when a member likes a plain repost, then its author sees the words of the post it shares', async () => {
    const ada = await app.createMember({ name: 'Ada' });
    const bob = await app.createMember({ name: 'Bob' });
    const carol = await app.createMember({ name: 'Carol' });
    const post = await publish(app.http, ada, 'Library open late this week');
    const shared = await app
      .http()
      .post(`/api/posts/${post.id}/repost`)
      .set('Authorization', bob.auth)
      .send({})
      .expect(201);
    await app
      .http()
      .post(`/api/posts/${shared.body.id}/like`)
      .set('Authorization', carol.auth)
      .expect(200);

    const toBob = await app.http().get('/api/notifications').set('Authorization', bob.auth);
    expect(toBob.body).toEqual([
      expect.objectContaining({
        type: 'like',
        actor: expect.objectContaining({ id: carol.id }),
        post: { id: shared.body.id, content: 'Library open late this week' },
      }),
    ]);
  });
});

describe('GET /api/notifications?grouped=true', () => {
  /** Ada's post liked by `likers`, one after the other. */
  async function likedBy(author: { auth: string; id: number }, likers: Array<{ auth: string }>) {
    const post = await publish(app.http, author, `post ${Math.random()}`);
    for (const liker of likers)
      await app
        .http()
        .post(`/api/posts/${post.id}/like`)
        .set('Authorization', liker.auth)
        .expect(200);
    return post;
  }

  test('when a post is liked by four and reposted, and two follow the same day, then they are three rows with their actors, newest first', async () => {
    const ada = await app.createMember({ name: 'Ada' });
    const [bob, carol, dan, eve] = await Promise.all(
      ['Bob', 'Carol', 'Dan', 'Eve'].map((name) => app.createMember({ name })),
    );
    const post = await likedBy(ada, [bob!, carol!, dan!, eve!]);
    await app
      .http()
      .post(`/api/posts/${post.id}/repost`)
      .set('Authorization', bob!.auth)
      .send({})
      .expect(201);
    await app
      .http()
      .post(`/api/users/${ada.id}/follow`)
      .set('Authorization', carol!.auth)
      .expect(200);
    await app
      .http()
      .post(`/api/users/${ada.id}/follow`)
      .set('Authorization', dan!.auth)
      .expect(200);

    const res = await app
      .http()
      .get('/api/notifications?grouped=true')
      .set('Authorization', ada.auth)
      .expect(200);
    expect(res.body.nextCursor).toBeNull();
    const [follows, reposts, likes] = res.body.groups;
    expect(res.body.groups).toHaveLength(3);
    expect(follows).toMatchObject({
      type: 'follow',
      key: expect.stringMatching(/^follow:\d{4}-\d{2}-\d{2}$/),
      actorsCount: 2,
      actors: [
        expect.objectContaining({ id: dan!.id }),
        expect.objectContaining({ id: carol!.id }),
      ],
      isRead: false,
    });
    expect(follows.ids).toHaveLength(2);
    expect(reposts).toMatchObject({ type: 'repost', key: `repost:${post.id}`, actorsCount: 1 });
    expect(likes).toMatchObject({
      type: 'like',
      key: `like:${post.id}`,
      actorsCount: 4,
      // Up to three actors, the most recent first, with their avatars.
      actors: [
        { id: eve!.id, name: 'Eve', avatarUrl: null },
        { id: dan!.id, name: 'Dan', avatarUrl: null },
        { id: carol!.id, name: 'Carol', avatarUrl: null },
      ],
      latest: expect.objectContaining({
        type: 'like',
        actor: expect.objectContaining({ id: eve!.id }),
      }),
    });
    expect(likes.ids).toHaveLength(4);
  });

  test('when groups are paged, then every group appears exactly once, on the page of its newest member, even when one grows meanwhile', async () => {
    const ada = await app.createMember({ name: 'Ada' });
    const likers = await Promise.all([1, 2, 3].map(() => app.createMember()));
    const posts = [];
    // Five posts, each liked by one then another: ten notifications, five groups.
    for (let i = 0; i < 5; i++) posts.push(await likedBy(ada, [likers[0]!, likers[1]!]));
    const page = (before?: number) =>
      app
        .http()
        .get(`/api/notifications?grouped=true&limit=2${before ? `&before=${before}` : ''}`)
        .set('Authorization', ada.auth)
        .expect(200);

    const first = await page();
    expect(first.body.groups.map((g: { key: string }) => g.key)).toEqual([
      `like:${posts[4]!.id}`,
      `like:${posts[3]!.id}`,
    ]);
    // The oldest group grows between pages: it moves to the top, not into a later page twice.
    await app
      .http()
      .post(`/api/posts/${posts[0]!.id}/like`)
      .set('Authorization', likers[2]!.auth)
      .expect(200);
    const second = await page(first.body.nextCursor);
    expect(second.body.groups.map((g: { key: string }) => g.key)).toEqual([
      `like:${posts[2]!.id}`,
      `like:${posts[1]!.id}`,
    ]);
    expect(second.body.groups[0].ids).toHaveLength(2);
    // Nothing is left below: the grown group is on the first page now.
    expect(second.body.nextCursor).toBeNull();
    const top = await page();
    expect(top.body.groups[0]).toMatchObject({ key: `like:${posts[0]!.id}`, actorsCount: 3 });
  });

  test('when notifications were stored out of id order (imported, seeded), then groups come newest first by date, page after page', async () => {
    const ada = await app.createMember({ name: 'Ada' });
    const bob = await app.createMember({ name: 'Bob' });
    const carol = await app.createMember({ name: 'Carol' });
    const post = await publish(app.http, ada, 'dated post');
    const hour = 3_600_000;
    const now = Date.now();
    // Ids ascending, dates not: the follow is the newest, the like the oldest.
    const stored: Array<{
      type: 'like' | 'follow' | 'repost';
      actorId: number;
      postId: number | null;
      createdAt: Date;
    }> = [
      { type: 'like', actorId: carol.id, postId: post.id, createdAt: new Date(now - 3 * hour) },
      { type: 'follow', actorId: bob.id, postId: null, createdAt: new Date(now - 1 * hour) },
      { type: 'repost', actorId: bob.id, postId: post.id, createdAt: new Date(now - 2 * hour) },
      { type: 'like', actorId: bob.id, postId: post.id, createdAt: new Date(now - 4 * hour) },
    ];
    for (const n of stored)
      await app.models.Notification.create({
        _id: await app.context.ids.nextId('notifications'),
        userId: ada.id,
        ...n,
      });
    const page = (before?: number) =>
      app
        .http()
        .get(`/api/notifications?grouped=true&limit=1${before ? `&before=${before}` : ''}`)
        .set('Authorization', ada.auth)
        .expect(200);

    const all = await app
      .http()
      .get('/api/notifications?grouped=true')
      .set('Authorization', ada.auth)
      .expect(200);
    expect(all.body.groups.map((g: { key: string }) => g.key)).toEqual([
      expect.stringMatching(/^follow:/),
      `repost:${post.id}`,
      `like:${post.id}`,
    ]);
    // A group's members and actors are newest first by date as well.
    expect(all.body.groups[2].actors.map((a: { id: number }) => a.id)).toEqual([carol.id, bob.id]);
    const dates = all.body.groups.map((g: { createdAt: string }) => Date.parse(g.createdAt));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);

    const keys: string[] = [];
    let cursor: number | undefined;
    for (let i = 0; i < 4; i++) {
      const res = await page(cursor);
      keys.push(...res.body.groups.map((g: { key: string }) => g.key));
      if (res.body.nextCursor === null) break;
      cursor = res.body.nextCursor;
    }
    expect(keys).toEqual(all.body.groups.map((g: { key: string }) => g.key));
  });

  test('when the query is malformed, then it is a 400 with a message', async () => {
    const ada = await app.createMember();
    for (const [query, message] of [
      ['grouped=yes', 'grouped must be true or false'],
      ['grouped=true&limit=0', 'limit must be at least 1'],
      ['grouped=true&limit=500', 'limit must be at most 50'],
      ['grouped=true&before=abc', 'before must be a notification group cursor'],
    ]) {
      const res = await app
        .http()
        .get(`/api/notifications?${query}`)
        .set('Authorization', ada.auth);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message });
    }
  });
});

describe('PUT /api/notifications/read', () => {
  test('when the recipient marks a group read, then every member of it is read and nothing else', async () => {
    const ada = await app.createMember({ name: 'Ada' });
    const [bob, carol] = await Promise.all([app.createMember(), app.createMember()]);
    const post = await publish(app.http, ada, 'liked twice');
    for (const m of [bob, carol])
      await app.http().post(`/api/posts/${post.id}/like`).set('Authorization', m.auth).expect(200);
    await app.http().post(`/api/users/${ada.id}/follow`).set('Authorization', bob.auth).expect(200);

    const res = await app
      .http()
      .put('/api/notifications/read')
      .set('Authorization', ada.auth)
      .send({ keys: [`like:${post.id}`] })
      .expect(200);
    expect(res.body).toEqual({ updated: 2 });
    const groups = await app
      .http()
      .get('/api/notifications?grouped=true')
      .set('Authorization', ada.auth);
    expect(
      groups.body.groups.map((g: { type: string; isRead: boolean }) => [g.type, g.isRead]),
    ).toEqual([
      ['follow', false],
      ['like', true],
    ]);
  });

  test("when someone names another member's notifications or groups, then nothing of theirs changes", async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const post = await publish(app.http, ada, 'mine');
    await app.http().post(`/api/posts/${post.id}/like`).set('Authorization', bob.auth).expect(200);
    const [own] = (await app.http().get('/api/notifications').set('Authorization', ada.auth)).body;
    const res = await app
      .http()
      .put('/api/notifications/read')
      .set('Authorization', bob.auth)
      .send({ ids: [own.id], keys: [`like:${post.id}`] })
      .expect(200);
    expect(res.body).toEqual({ updated: 0 });
    expect((await app.models.Notification.findById(own.id).lean())?.isRead).toBe(false);
  });

  test.each([
    [{}, 'Give the ids or the group keys to mark read'],
    [{ keys: ['like:abc'] }, 'Invalid notification group key'],
    [{ keys: [{ $gt: '' }] }, 'Group keys must be text'],
    [{ ids: ['1'] }, 'Invalid input: expected number, received string'],
    [{ ids: [1], other: true }, 'Unrecognized key: "other"'],
  ])('when the body is %j, then it is a 400', async (body, message) => {
    const ada = await app.createMember();
    const res = await app
      .http()
      .put('/api/notifications/read')
      .set('Authorization', ada.auth)
      .send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });
});
