import http from 'node:http';
import { trusted } from 'mongoose';
import type { AddressInfo } from 'node:net';
import {
  MAX_BLOCKS,
  MAX_MUTED_WORDS,
  MAX_MUTES,
  postListSchema,
  safetyListsSchema,
  streamEventSchemas,
} from '@campus/contracts';
import { TestClock } from '../../../test/clock';
import { openStream, type OpenedStream, type StreamEvent } from '../../../test/stream-client';
import { useTestApp, type Member } from '../../../test/test-app';

const t = useTestApp();

const DAY = 24 * 60 * 60 * 1000;

async function post(member: Member, content: string, extra: Record<string, unknown> = {}) {
  const res = await t
    .http()
    .post('/api/posts')
    .set('Authorization', member.auth)
    .send({ content, ...extra })
    .expect(201);
  return res.body as { id: number };
}

async function feedIds(member: Member, query = '', client = t.http()): Promise<number[]> {
  const res = await client.get(`/api/posts${query}`).set('Authorization', member.auth).expect(200);
  return postListSchema.parse(res.body).map((p) => p.id);
}

async function block(blocker: Member, blocked: Member) {
  await t
    .http()
    .post(`/api/users/${blocked.id}/block`)
    .set('Authorization', blocker.auth)
    .expect(200, { userId: blocked.id, blocked: true });
}

async function follow(follower: Member, followed: Member) {
  await t
    .http()
    .post(`/api/users/${followed.id}/follow`)
    .set('Authorization', follower.auth)
    .expect(200);
}

/** Two members, one blocking the other, and a third who sees both. */
async function blockedPair() {
  const ada = await t.createMember({ name: 'Ada Blocker' });
  const bob = await t.createMember({ name: 'Bob Blocked' });
  return { ada, bob };
}

describe('POST /api/users/:id/block: bad input and limits', () => {
  test('when members block or mute themselves, then 400 and nothing is stored', async () => {
    const ada = await t.createMember();
    const self = await t.http().post(`/api/users/${ada.id}/block`).set('Authorization', ada.auth);
    expect(self.status).toBe(400);
    expect(self.body).toEqual({ message: 'You cannot block yourself' });
    const mute = await t.http().post(`/api/users/${ada.id}/mute`).set('Authorization', ada.auth);
    expect(mute.status).toBe(400);
    expect(mute.body).toEqual({ message: 'You cannot mute yourself' });
    expect(await t.models.Block.countDocuments({ blockerId: ada.id })).toBe(0);
    expect(await t.models.Mute.countDocuments({ muterId: ada.id })).toBe(0);
  });

  test('when the member or the muted word does not exist, then 404', async () => {
    const ada = await t.createMember();
    for (const path of ['block', 'mute']) {
      const res = await t.http().post(`/api/users/987654/${path}`).set('Authorization', ada.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'User not found' });
    }
    await t.http().delete('/api/users/987654/block').set('Authorization', ada.auth).expect(404);
    await t
      .http()
      .delete('/api/safety/muted-words/987654')
      .set('Authorization', ada.auth)
      .expect(404, { message: 'Muted word not found' });
  });

  test('when a body carries operators, unknown fields or a bad duration, then 400', async () => {
    const ada = await t.createMember();
    const bob = await t.createMember();
    const bodies = [
      { duration: { $gt: '' } },
      { duration: '2d' },
      { duration: '1d', userId: ada.id },
    ];
    for (const body of bodies) {
      const res = await t
        .http()
        .post(`/api/users/${bob.id}/mute`)
        .set('Authorization', ada.auth)
        .send(body);
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    await t
      .http()
      .post(`/api/users/${bob.id}/block`)
      .set('Authorization', ada.auth)
      .send({ $where: '1' })
      .expect(400);
    for (const phrase of [
      { $regex: '.' },
      '',
      'x'.repeat(101),
      'zero\u200bwidth',
      '\u0301\u0301',
    ]) {
      const res = await t
        .http()
        .post('/api/safety/muted-words')
        .set('Authorization', ada.auth)
        .send({ phrase });
      expect(res.status).toBe(400);
    }
    expect(await t.models.Mute.countDocuments({ muterId: ada.id })).toBe(0);
    expect(await t.models.MutedWord.countDocuments({ userId: ada.id })).toBe(0);
  });

  test('when a member has reached the limits, then one more block, mute or word is a 400 that says so', async () => {
    const ada = await t.createMember();
    const bob = await t.createMember();
    const now = new Date();
    const ids = (n: number, from: number) => Array.from({ length: n }, (_, i) => from + i);
    await t.models.Block.insertMany(
      ids(MAX_BLOCKS, 10_000_000).map((id) => ({ _id: id, blockerId: ada.id, blockedId: id })),
    );
    await t.models.Mute.insertMany(
      ids(MAX_MUTES, 10_000_000).map((id) => ({
        _id: id,
        muterId: ada.id,
        mutedId: id,
        until: null,
      })),
    );
    await t.models.MutedWord.insertMany(
      ids(MAX_MUTED_WORDS, 10_000_000).map((id) => ({
        _id: id,
        userId: ada.id,
        phrase: `word${id}`,
        folded: `word${id}`,
        until: null,
        createdAt: now,
      })),
    );
    t.caches.safety.forget(ada.id);
    const blocked = await t
      .http()
      .post(`/api/users/${bob.id}/block`)
      .set('Authorization', ada.auth);
    expect(blocked.status).toBe(400);
    expect(blocked.body).toEqual({ message: 'You can block at most 10,000 members' });
    const muted = await t.http().post(`/api/users/${bob.id}/mute`).set('Authorization', ada.auth);
    expect(muted.status).toBe(400);
    expect(muted.body).toEqual({ message: 'You can mute at most 10,000 members' });
    const word = await t
      .http()
      .post('/api/safety/muted-words')
      .set('Authorization', ada.auth)
      .send({ phrase: 'one more' });
    expect(word.status).toBe(400);
    expect(word.body).toEqual({ message: 'You can mute at most 200 words or phrases' });
    // A word that ran out no longer counts.
    await t.models.MutedWord.updateOne(
      { _id: 10_000_000 },
      { $set: { until: new Date(Date.now() - 1000) } },
    );
    await t
      .http()
      .post('/api/safety/muted-words')
      .set('Authorization', ada.auth)
      .send({ phrase: 'one more' })
      .expect(201);
  });

  test('when there is no token, then 401', async () => {
    const bob = await t.createMember();
    await t.http().post(`/api/users/${bob.id}/block`).expect(401);
    await t.http().get('/api/safety').expect(401);
  });
});

describe('a block', () => {
  test('when a member blocks another, then the follows both ways end with their notifications, and neither can follow again', async () => {
    const { ada, bob } = await blockedPair();
    await follow(ada, bob);
    await follow(bob, ada);
    await block(ada, bob);
    expect(await t.models.Follow.countDocuments({ followerId: ada.id, followingId: bob.id })).toBe(
      0,
    );
    expect(await t.models.Follow.countDocuments({ followerId: bob.id, followingId: ada.id })).toBe(
      0,
    );
    expect(
      await t.models.Notification.countDocuments({
        type: 'follow',
        userId: trusted({ $in: [ada.id, bob.id] }),
      }),
    ).toBe(0);
    for (const [who, whom] of [
      [ada, bob],
      [bob, ada],
    ] as const) {
      const res = await t
        .http()
        .post(`/api/users/${whom.id}/follow`)
        .set('Authorization', who.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'User not found' });
    }
  });

  test('when blocked, then neither can like, comment on, reply to, repost or quote the other, nor like their comments', async () => {
    const { ada, bob } = await blockedPair();
    const third = await t.createMember();
    const adas = await post(ada, 'Ada writes');
    const bobs = await post(bob, 'Bob writes');
    const thirds = await post(third, 'A third post');
    const adaComment = (
      await t
        .http()
        .post(`/api/posts/${thirds.id}/comments`)
        .set('Authorization', ada.auth)
        .send({ content: 'Ada comments' })
        .expect(201)
    ).body as { id: number };
    await block(ada, bob);
    for (const [actor, target] of [
      [ada, bobs],
      [bob, adas],
    ] as const) {
      const auth = actor.auth;
      await t.http().post(`/api/posts/${target.id}/like`).set('Authorization', auth).expect(404);
      await t
        .http()
        .post(`/api/posts/${target.id}/comments`)
        .set('Authorization', auth)
        .send({ content: 'hello' })
        .expect(404, { message: 'Post not found' });
      await t
        .http()
        .post(`/api/posts/${target.id}/repost`)
        .set('Authorization', auth)
        .send({})
        .expect(404);
      await t
        .http()
        .post(`/api/posts/${target.id}/repost`)
        .set('Authorization', auth)
        .send({ comment: 'a quote' })
        .expect(404);
    }
    const reply = await t
      .http()
      .post(`/api/posts/${thirds.id}/comments`)
      .set('Authorization', bob.auth)
      .send({ content: 'a reply', parentId: adaComment.id });
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ message: 'Comment not found' });
    await t
      .http()
      .post(`/api/comments/${adaComment.id}/like`)
      .set('Authorization', bob.auth)
      .expect(404);
    // Nothing was written: no like, no comment, no repost, no counts moved.
    expect(await t.models.Like.countDocuments({ userId: trusted({ $in: [ada.id, bob.id] }) })).toBe(
      0,
    );
    expect(await t.models.Comment.countDocuments({ authorId: bob.id })).toBe(0);
    expect((await t.models.Post.findById(thirds.id).lean())!.commentsCount).toBe(1);
    expect(
      await t.models.Post.countDocuments({ authorId: trusted({ $in: [ada.id, bob.id] }) }),
    ).toBe(2);
  });

  test('when a member is blocked, then each feed tab and Top Posts leaves out the other’s posts, reposts and quotes, both ways', async () => {
    const { ada, bob } = await blockedPair();
    const third = await t.createMember();
    await follow(ada, bob);
    await follow(bob, ada);
    await follow(ada, third);
    await follow(bob, third);
    const bobs = await post(bob, 'Bob on the JD tab', { isJdTagged: true });
    const adas = await post(ada, 'Ada on the JD tab', { isJdTagged: true });
    const repostOfBob = (
      await t
        .http()
        .post(`/api/posts/${bobs.id}/repost`)
        .set('Authorization', third.auth)
        .send({})
        .expect(201)
    ).body as { id: number };
    const quoteOfAda = (
      await t
        .http()
        .post(`/api/posts/${adas.id}/repost`)
        .set('Authorization', third.auth)
        .send({ comment: 'quoting Ada' })
        .expect(201)
    ).body as { id: number };
    const thirds = await post(third, 'Seen by both', { isJdTagged: true });
    await block(ada, bob);
    const hiddenFromAda = [bobs.id, repostOfBob.id];
    const hiddenFromBob = [adas.id, quoteOfAda.id];
    for (const query of ['', '?tab=following', '?tab=jd', '?topFilter=true']) {
      const seenByAda = await feedIds(ada, query);
      const seenByBob = await feedIds(bob, query);
      expect(seenByAda).toContain(thirds.id);
      expect(seenByBob).toContain(thirds.id);
      for (const id of hiddenFromAda) expect(seenByAda).not.toContain(id);
      for (const id of hiddenFromBob) expect(seenByBob).not.toContain(id);
    }
    // The third member still sees everything.
    const seenByThird = await feedIds(third);
    for (const id of [...hiddenFromAda, ...hiddenFromBob]) expect(seenByThird).toContain(id);
  });

  test('when hidden posts thin a page, then pages stay full and the next starts where the last ended', async () => {
    const { ada, bob } = await blockedPair();
    const other = await t.createMember();
    await follow(ada, bob);
    await follow(ada, other);
    const mine: number[] = [];
    for (let i = 0; i < 6; i++) {
      mine.push((await post(other, `other ${i}`)).id);
      await post(bob, `bob ${i}`);
    }
    await block(ada, bob);
    const first = await feedIds(ada, '?tab=following&limit=4');
    const second = await feedIds(ada, '?tab=following&limit=4&offset=4');
    expect([...first, ...second]).toEqual([...mine].reverse());
  });

  test('when a post is by a member blocked either way, then its page and its comments are 404', async () => {
    const { ada, bob } = await blockedPair();
    const bobs = await post(bob, 'Bob writes');
    const adas = await post(ada, 'Ada writes');
    await block(ada, bob);
    await t.http().get(`/api/posts/${bobs.id}`).set('Authorization', ada.auth).expect(404);
    await t.http().get(`/api/posts/${adas.id}`).set('Authorization', bob.auth).expect(404);
    await t.http().get(`/api/posts/${adas.id}/comments`).set('Authorization', bob.auth).expect(404);
  });

  test('when a member commented on a third post, then the other does not see that comment or its replies', async () => {
    const { ada, bob } = await blockedPair();
    const third = await t.createMember();
    const thirds = await post(third, 'A third post');
    const comment = async (member: Member, content: string, parentId?: number) =>
      (
        await t
          .http()
          .post(`/api/posts/${thirds.id}/comments`)
          .set('Authorization', member.auth)
          .send({ content, ...(parentId ? { parentId } : {}) })
          .expect(201)
      ).body as { id: number };
    const bobsComment = await comment(bob, 'Bob comments');
    await comment(third, 'A reply to Bob', bobsComment.id);
    const thirdsComment = await comment(third, 'The third comments');
    const bobsReply = await comment(bob, 'Bob replies', thirdsComment.id);
    await block(ada, bob);
    const detail = await t
      .http()
      .get(`/api/posts/${thirds.id}`)
      .set('Authorization', ada.auth)
      .expect(200);
    const shown = detail.body.comments as Array<{ id: number; replies: Array<{ id: number }> }>;
    expect(shown.map((c) => c.id)).toEqual([thirdsComment.id]);
    expect(shown[0]!.replies.map((r) => r.id)).not.toContain(bobsReply.id);
    const forThird = await t.http().get(`/api/posts/${thirds.id}`).set('Authorization', third.auth);
    expect((forThird.body.comments as unknown[]).length).toBe(2);
  });

  test('when blocked either way, then the profile and its follow lists read as unavailable, and the other is left out of anyone’s lists', async () => {
    const { ada, bob } = await blockedPair();
    const third = await t.createMember();
    await follow(third, ada);
    await follow(bob, third);
    await block(ada, bob);
    for (const [viewer, subject] of [
      [ada, bob],
      [bob, ada],
    ] as const) {
      const res = await t.http().get(`/api/users/${subject.id}`).set('Authorization', viewer.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'User not found' });
      await t
        .http()
        .get(`/api/users/${subject.id}/followers`)
        .set('Authorization', viewer.auth)
        .expect(404);
    }
    const thirdsFollowers = await t
      .http()
      .get(`/api/users/${third.id}/followers`)
      .set('Authorization', ada.auth)
      .expect(200);
    expect((thirdsFollowers.body as Array<{ id: number }>).map((u) => u.id)).toEqual([]);
    const thirdsFollowing = await t
      .http()
      .get(`/api/users/${third.id}/following`)
      .set('Authorization', bob.auth)
      .expect(200);
    expect((thirdsFollowing.body as Array<{ id: number }>).map((u) => u.id)).toEqual([]);
  });

  test('when blocked either way, then people search and who to follow leave the other out', async () => {
    const ada = await t.createMember({ name: 'Zebulon Searcher' });
    const bob = await t.createMember({ name: 'Zebulon Hidden' });
    const search = async (viewer: Member) =>
      (
        (await t.http().get('/api/users?q=zebulon').set('Authorization', viewer.auth).expect(200))
          .body as Array<{ id: number }>
      ).map((u) => u.id);
    expect(await search(ada)).toContain(bob.id);
    const suggestions = async (viewer: Member) =>
      (
        (await t.http().get('/api/users/suggestions').set('Authorization', viewer.auth).expect(200))
          .body as Array<{ id: number }>
      ).map((u) => u.id);
    await block(ada, bob);
    expect(await search(ada)).not.toContain(bob.id);
    expect(await search(bob)).not.toContain(ada.id);
    expect(await suggestions(ada)).not.toContain(bob.id);
    expect(await suggestions(bob)).not.toContain(ada.id);
  });

  test('when blocked, then the notifications the other caused are hidden from the list and the groups, and no longer unread', async () => {
    const { ada, bob } = await blockedPair();
    const adas = await post(ada, 'Ada writes');
    await t.http().post(`/api/posts/${adas.id}/like`).set('Authorization', bob.auth).expect(200);
    const list = async (member: Member) =>
      (await t.http().get('/api/notifications').set('Authorization', member.auth).expect(200))
        .body as Array<{ actor: { id: number } | null }>;
    const groups = async (member: Member) =>
      (
        await t
          .http()
          .get('/api/notifications?grouped=true')
          .set('Authorization', member.auth)
          .expect(200)
      ).body as { groups: unknown[] };
    expect((await list(ada)).map((n) => n.actor?.id)).toEqual([bob.id]);
    expect((await groups(ada)).groups).toHaveLength(1);
    await block(ada, bob);
    expect(await list(ada)).toEqual([]);
    expect((await groups(ada)).groups).toEqual([]);
    // Hidden, it no longer counts as unread.
    expect(await t.models.Notification.countDocuments({ userId: ada.id, isRead: false })).toBe(0);
  });

  test('when a block is made through another API process, then this one hides the member on its next page', async () => {
    const { ada, bob } = await blockedPair();
    await follow(ada, bob);
    const bobs = await post(bob, 'Bob writes');
    const other = t.another({ readCacheMs: 60_000 });
    // Both processes hold Ada's view now.
    expect(await feedIds(ada, '?tab=following')).toContain(bobs.id);
    expect(await feedIds(ada, '?tab=following', other.http())).toContain(bobs.id);
    await other
      .http()
      .post(`/api/users/${bob.id}/block`)
      .set('Authorization', ada.auth)
      .expect(200);
    await t.caughtUp();
    expect(await feedIds(ada, '?tab=following')).not.toContain(bobs.id);
    expect(await feedIds(ada, '')).not.toContain(bobs.id);
  });

  test('when a member unblocks, then the other’s posts and profile are back (the follows stay ended)', async () => {
    const { ada, bob } = await blockedPair();
    await follow(ada, bob);
    const bobs = await post(bob, 'Bob writes');
    await block(ada, bob);
    await t
      .http()
      .delete(`/api/users/${bob.id}/block`)
      .set('Authorization', ada.auth)
      .expect(200, { userId: bob.id, blocked: false });
    expect(await feedIds(ada)).toContain(bobs.id);
    expect(await feedIds(ada, '?tab=following')).not.toContain(bobs.id);
    await t.http().get(`/api/users/${bob.id}`).set('Authorization', ada.auth).expect(200);
  });
});

describe('a mute', () => {
  test('when a member mutes another for a day, then their posts, reposts and notifications are hidden from the muter only, until the day is over', async () => {
    const clock = new TestClock();
    const app = t.another({}, clock);
    const ada = await t.createMember();
    const bob = await t.createMember();
    const third = await t.createMember();
    const adas = await post(ada, 'Ada writes');
    const bobs = await post(bob, 'Bob writes');
    const bobsRepost = (
      await t
        .http()
        .post(`/api/posts/${adas.id}/repost`)
        .set('Authorization', bob.auth)
        .send({})
        .expect(201)
    ).body as { id: number };
    const muted = await app
      .http()
      .post(`/api/users/${bob.id}/mute`)
      .set('Authorization', ada.auth)
      .send({ duration: '1d' })
      .expect(200);
    expect(muted.body).toEqual({
      userId: bob.id,
      muted: true,
      until: new Date(Date.parse(muted.body.until)).toISOString(),
    });
    expect(Date.parse(muted.body.until) - clock.now().getTime()).toBeLessThanOrEqual(DAY);
    await t.http().post(`/api/posts/${adas.id}/like`).set('Authorization', bob.auth).expect(200);

    const seen = await feedIds(ada, '', app.http());
    expect(seen).not.toContain(bobs.id);
    expect(seen).not.toContain(bobsRepost.id);
    expect(await feedIds(third, '', app.http())).toContain(bobs.id);
    const notes = await app
      .http()
      .get('/api/notifications')
      .set('Authorization', ada.auth)
      .expect(200);
    expect(notes.body).toEqual([]);
    // Muted, not blocked: Bob's profile and post still open for Ada, and Bob sees Ada.
    await app.http().get(`/api/posts/${bobs.id}`).set('Authorization', ada.auth).expect(200);
    expect(await feedIds(bob, '', app.http())).toContain(adas.id);

    clock.advance(DAY + 1000);
    const later = await feedIds(ada, '', app.http());
    expect(later).toContain(bobs.id);
    expect(later).toContain(bobsRepost.id);
    const lists = safetyListsSchema.parse(
      (await app.http().get('/api/safety').set('Authorization', ada.auth).expect(200)).body,
    );
    expect(lists.muted).toEqual([]);
  });

  test('when the muted member acts, then no notification counts as unread and the live stream delivers none of it', async () => {
    const app = t.another({});
    const listener = http.createServer(app.app.callback());
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    let s: OpenedStream | undefined;
    try {
      const ada = await t.createMember();
      const bob = await t.createMember();
      const carol = await t.createMember();
      const adas = await post(ada, 'Ada writes');
      await t
        .http()
        .post(`/api/users/${bob.id}/mute`)
        .set('Authorization', ada.auth)
        .send({})
        .expect(200);
      s = await openStream(baseUrl, ada.auth, { query: `tabs=for-you:${adas.id}` });
      const named = (event: string) => (e: StreamEvent) => e.event === event;
      await s.next(named('posts'));
      const from = s.events.length;
      await t.http().post(`/api/posts/${adas.id}/like`).set('Authorization', bob.auth).expect(200);
      const bobs = await post(bob, 'Bob posts, muted');
      // Carol's repost of it is hidden from Ada's feed, so it is not counted live either.
      await t
        .http()
        .post(`/api/posts/${bobs.id}/repost`)
        .set('Authorization', carol.auth)
        .send({})
        .expect(201);
      await t
        .http()
        .post(`/api/posts/${adas.id}/like`)
        .set('Authorization', carol.auth)
        .expect(200);
      await post(carol, 'Carol posts');
      const note = await s.next(named('notification'), from);
      expect((note.data as { actor: { id: number } }).actor.id).toBe(carol.id);
      await s.next((e) => e.event === 'posts' && (e.data as { count: number }).count === 1, from);
      const later = s.events.slice(from);
      expect(later.filter(named('notification'))).toHaveLength(1);
      expect(
        later.filter(named('posts')).map((e) => streamEventSchemas.posts.parse(e.data).count),
      ).toEqual([1]);
      const unread = await t.models.Notification.countDocuments({ userId: ada.id, isRead: false });
      expect(unread).toBe(1);
      // A stream opened afterwards counts the same posts from the database: Carol's only.
      s.close();
      s = await openStream(baseUrl, ada.auth, { query: `tabs=for-you:${adas.id}` });
      const replayed = await s.next(named('posts'));
      expect(streamEventSchemas.posts.parse(replayed.data).count).toBe(1);
    } finally {
      s?.close();
      listener.closeAllConnections();
      await new Promise((resolve) => listener.close(resolve));
    }
  });
});

describe('muted words', () => {
  test('when a post contains a muted word (any case, with diacritics, as a hashtag), then it is marked for a collapsed row; a longer word is not', async () => {
    const ada = await t.createMember();
    const bob = await t.createMember();
    const word = await t
      .http()
      .post('/api/safety/muted-words')
      .set('Authorization', ada.auth)
      .send({ phrase: 'Cafe', duration: '7d' })
      .expect(201);
    expect(word.body).toMatchObject({ phrase: 'Cafe' });
    await t
      .http()
      .post('/api/safety/muted-words')
      .set('Authorization', ada.auth)
      .send({ phrase: 'final  exam' })
      .expect(201);
    const accented = await post(bob, 'Meet at the CAFÉ later');
    const hashtag = await post(bob, 'Off to the #cafe');
    const phrase = await post(bob, 'The Final Exam is tomorrow');
    const longer = await post(bob, 'Cafeteria food again');
    const plain = await post(bob, 'Nothing to hide');
    const res = await t.http().get('/api/posts').set('Authorization', ada.auth).expect(200);
    const byId = new Map(postListSchema.parse(res.body).map((p) => [p.id, p]));
    expect(byId.get(accented.id)!.mutedWord).toBe('Cafe');
    expect(byId.get(hashtag.id)!.mutedWord).toBe('Cafe');
    expect(byId.get(phrase.id)!.mutedWord).toBe('final exam');
    expect(byId.get(longer.id)!.mutedWord).toBeUndefined();
    expect(byId.get(plain.id)!.mutedWord).toBeUndefined();
    // Nobody else's feed is marked.
    const forBob = postListSchema.parse(
      (await t.http().get('/api/posts').set('Authorization', bob.auth).expect(200)).body,
    );
    expect(forBob.every((p) => p.mutedWord === undefined)).toBe(true);
  });

  test('when a comment on my post contains a muted word, then its notification is hidden', async () => {
    const ada = await t.createMember();
    const bob = await t.createMember();
    const adas = await post(ada, 'Ada writes');
    await t
      .http()
      .post('/api/safety/muted-words')
      .set('Authorization', ada.auth)
      .send({ phrase: 'spoiler' })
      .expect(201);
    await t
      .http()
      .post(`/api/posts/${adas.id}/comments`)
      .set('Authorization', bob.auth)
      .send({ content: 'Big SPOILER ahead' })
      .expect(201);
    await t
      .http()
      .post(`/api/posts/${adas.id}/comments`)
      .set('Authorization', bob.auth)
      .send({ content: 'Nice one' })
      .expect(201);
    const notes = await t
      .http()
      .get('/api/notifications')
      .set('Authorization', ada.auth)
      .expect(200);
    expect((notes.body as Array<{ commentText: string }>).map((n) => n.commentText)).toEqual([
      'Nice one',
    ]);
  });
});

describe('GET /api/safety', () => {
  test('when a member blocked, muted and muted words, then the lists show them newest first and each can be undone', async () => {
    const ada = await t.createMember();
    const bob = await t.createMember({ name: 'Bob' });
    const carol = await t.createMember({ name: 'Carol' });
    await block(ada, bob);
    await t
      .http()
      .post(`/api/users/${carol.id}/mute`)
      .set('Authorization', ada.auth)
      .send({ duration: '7d' })
      .expect(200);
    const word = (
      await t
        .http()
        .post('/api/safety/muted-words')
        .set('Authorization', ada.auth)
        .send({ phrase: 'exam' })
        .expect(201)
    ).body as { id: number };
    const lists = safetyListsSchema.parse(
      (await t.http().get('/api/safety').set('Authorization', ada.auth).expect(200)).body,
    );
    expect(lists.blocked.map((m) => [m.id, m.name])).toEqual([[bob.id, 'Bob']]);
    expect(lists.muted.map((m) => [m.id, m.name])).toEqual([[carol.id, 'Carol']]);
    expect(lists.muted[0]!.until).not.toBeNull();
    expect(lists.words.map((w) => [w.id, w.phrase, w.until])).toEqual([[word.id, 'exam', null]]);

    await t.http().delete(`/api/users/${bob.id}/block`).set('Authorization', ada.auth).expect(200);
    await t
      .http()
      .delete(`/api/users/${carol.id}/mute`)
      .set('Authorization', ada.auth)
      .expect(200, { userId: carol.id, muted: false, until: null });
    await t
      .http()
      .delete(`/api/safety/muted-words/${word.id}`)
      .set('Authorization', ada.auth)
      .expect(204);
    expect((await t.http().get('/api/safety').set('Authorization', ada.auth)).body).toEqual({
      blocked: [],
      muted: [],
      words: [],
    });
    // Someone else's word is not theirs to remove.
    const bobsWord = (
      await t
        .http()
        .post('/api/safety/muted-words')
        .set('Authorization', bob.auth)
        .send({ phrase: 'exam' })
        .expect(201)
    ).body as { id: number };
    await t
      .http()
      .delete(`/api/safety/muted-words/${bobsWord.id}`)
      .set('Authorization', ada.auth)
      .expect(404);
  });
});
