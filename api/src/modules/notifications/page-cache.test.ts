import type { Notification, NotificationGroupPage } from '@campus/contracts';
import type request from 'supertest';
import { publish } from '../../../test/content';
import { countQueries } from '../../../test/query-counter';
import { startOtherProcessApp, useTestApp } from '../../../test/test-app';
import type { DomainEvent } from '../../domain-events';
import { EventBus } from '../../platform/event-bus';
import { NotificationPageCache } from './page-cache';

const app = useTestApp();
type Member = Awaited<ReturnType<typeof app.createMember>>;
type Http = () => ReturnType<typeof request>;

async function list(http: Http, member: Member): Promise<Notification[]> {
  return (await http().get('/api/notifications').set('Authorization', member.auth).expect(200))
    .body as Notification[];
}

async function groups(http: Http, member: Member): Promise<NotificationGroupPage> {
  return (
    await http()
      .get('/api/notifications?grouped=true')
      .set('Authorization', member.auth)
      .expect(200)
  ).body as NotificationGroupPage;
}

async function likedPost() {
  const ada = await app.createMember({ name: 'Ada' });
  const bob = await app.createMember({ name: 'Bob' });
  const post = await publish(app.http, ada, 'liked');
  await app.http().post(`/api/posts/${post.id}/like`).set('Authorization', bob.auth).expect(200);
  return { ada, bob, post };
}

describe('notification pages (read cache)', () => {
  test('when a member reads their notifications again, then the list and the grouped page come without a database round trip', async () => {
    const { ada } = await likedPost();
    const first = await list(app.http, ada);
    const firstGroups = await groups(app.http, ada);
    const again = await countQueries(app.database.connection, async () => [
      await list(app.http, ada),
      await groups(app.http, ada),
    ]);
    expect(again.queries).toEqual([]);
    expect(again.result).toEqual([first, firstGroups]);
  });

  test('when their post is liked again, they are followed, or they mark it read, then the next read shows it at once', async () => {
    const { ada, post } = await likedPost();
    const carl = await app.createMember({ name: 'Carl' });
    expect((await groups(app.http, ada)).groups[0]).toMatchObject({ actorsCount: 1 });
    await list(app.http, ada);

    await app.http().post(`/api/posts/${post.id}/like`).set('Authorization', carl.auth).expect(200);
    expect((await groups(app.http, ada)).groups[0]).toMatchObject({
      key: `like:${post.id}`,
      actorsCount: 2,
      isRead: false,
    });
    await app.http().post(`/api/users/${ada.id}/follow`).set('Authorization', carl.auth);
    expect((await list(app.http, ada)).map((n) => n.type)).toEqual(['follow', 'like', 'like']);

    await app.http().put('/api/notifications/read-all').set('Authorization', ada.auth).expect(200);
    expect((await list(app.http, ada)).every((n) => n.isRead)).toBe(true);
    expect((await groups(app.http, ada)).groups.every((g) => g.isRead)).toBe(true);
  });

  test("when an actor renames themselves or the post is deleted, then the recipient's next page shows it", async () => {
    const { ada, bob, post } = await likedPost();
    expect((await list(app.http, ada))[0]).toMatchObject({ actor: { name: 'Bob' } });
    await app
      .http()
      .put(`/api/users/${bob.id}`)
      .set('Authorization', bob.auth)
      .send({ name: 'Bob Renamed' })
      .expect(200);
    expect((await list(app.http, ada))[0]).toMatchObject({ actor: { name: 'Bob Renamed' } });
    await app.http().delete(`/api/posts/${post.id}`).set('Authorization', ada.auth).expect(200);
    expect((await list(app.http, ada))[0]).toMatchObject({ post: null });
  });

  test("when a like only moves a post's count, then other members' kept pages stay kept", async () => {
    const { ada, post } = await likedPost();
    const dan = await app.createMember();
    await list(app.http, dan);
    await list(app.http, ada);
    const carl = await app.createMember();
    await app.http().post(`/api/posts/${post.id}/like`).set('Authorization', carl.auth).expect(200);
    // Ada was notified (read again); Dan's page is still the one kept.
    const danAgain = await countQueries(app.database.connection, () => list(app.http, dan));
    expect(danAgain.queries.filter((q) => q.startsWith('notifications.'))).toEqual([]);
    const adaAgain = await countQueries(app.database.connection, () => list(app.http, ada));
    expect(adaAgain.queries.filter((q) => q.startsWith('notifications.'))).not.toEqual([]);
  });

  test('when many requests miss the same page at once, then it is read from the database once (single flight)', async () => {
    const { ada } = await likedPost();
    await list(app.http, ada); // the caller's account known
    const reads = (queries: string[]) => queries.filter((q) => q === 'notifications.find').length;
    app.caches.notifications.clear();
    const one = await countQueries(app.database.connection, () => groups(app.http, ada));
    app.caches.notifications.clear();
    const many = await countQueries(app.database.connection, () =>
      Promise.all([1, 2, 3, 4, 5].map(() => groups(app.http, ada))),
    );
    expect(reads(one.queries)).toBeGreaterThan(0);
    expect(reads(many.queries)).toBe(reads(one.queries));
    for (const page of many.result) expect(page).toEqual(one.result);
  });

  test('when another API process (its own connection, caches kept for a minute) serves the list, then a like, a rename, a read mark and a deleted post made here are in its next page', async () => {
    const other = await startOtherProcessApp(app);
    const viaOther = other.http;
    try {
      const { ada, bob, post } = await likedPost();
      expect(await list(viaOther, ada)).toHaveLength(1);
      await groups(viaOther, ada);
      expect((await countQueries(other.connection, () => list(viaOther, ada))).queries).toEqual([]);

      const carl = await app.createMember({ name: 'Carl' });
      await app
        .http()
        .post(`/api/posts/${post.id}/like`)
        .set('Authorization', carl.auth)
        .expect(200);
      await other.caughtUp();
      expect(await list(viaOther, ada)).toHaveLength(2);
      expect((await groups(viaOther, ada)).groups[0]?.actorsCount).toBe(2);

      await app
        .http()
        .put(`/api/users/${bob.id}`)
        .set('Authorization', bob.auth)
        .send({ name: 'Bob Renamed' })
        .expect(200);
      await other.caughtUp();
      expect(
        (await list(viaOther, ada)).some((n) => 'actor' in n && n.actor?.name === 'Bob Renamed'),
      ).toBe(true);

      // One notification marked read through this app: the other's kept page held it.
      const [newest] = await list(app.http, ada);
      await app
        .http()
        .put(`/api/notifications/${newest!.id}/read`)
        .set('Authorization', ada.auth)
        .expect(200);
      await other.caughtUp();
      expect((await list(viaOther, ada)).find((n) => n.id === newest!.id)?.isRead).toBe(true);

      await app.http().delete(`/api/posts/${post.id}`).set('Authorization', ada.auth).expect(200);
      await other.caughtUp();
      expect((await list(viaOther, ada)).every((n) => 'post' in n && n.post === null)).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe('NotificationPageCache.subscribe', () => {
  const subscribed = () => {
    const events = new EventBus<DomainEvent>((err) => {
      throw err;
    });
    const cache = new NotificationPageCache(60_000);
    cache.subscribe(events);
    const tell = (...told: DomainEvent[]) => events.deliver(told, { local: false });
    return { cache, tell };
  };
  const kept = async (cache: NotificationPageCache, userId: number) => {
    let loads = 0;
    await cache.page(userId, 'list', async () => {
      loads += 1;
      return '[]';
    });
    return loads === 0;
  };
  const fill = async (cache: NotificationPageCache) => {
    for (const userId of [1, 2]) await kept(cache, userId);
  };

  test('when an event names a recipient, then only that member is forgotten', async () => {
    const { cache, tell } = subscribed();
    await fill(cache);
    tell({ type: 'notification.created', notificationId: 99, userId: 1 });
    expect([await kept(cache, 1), await kept(cache, 2)]).toEqual([false, true]);
    tell({ type: 'notification.read', userId: 2 });
    expect([await kept(cache, 1), await kept(cache, 2)]).toEqual([true, false]);
    tell({ type: 'notification.withdrawn', userId: 1 });
    expect([await kept(cache, 1), await kept(cache, 2)]).toEqual([false, true]);
  });

  test('when an event changes nothing a page shows, then every page stays; when it may, every page goes', async () => {
    const { cache, tell } = subscribed();
    await fill(cache);
    tell(
      { type: 'post.liked', postId: 5, userId: 3 },
      { type: 'comment.created', commentId: 6, postId: 5, authorId: 3, parentId: null },
      { type: 'feedback.updated', feedbackId: 1, userId: 3 },
      { type: 'follow.created', followerId: 3, followingId: 4 },
    );
    expect([await kept(cache, 1), await kept(cache, 2)]).toEqual([true, true]);
    const showing: DomainEvent[] = [
      { type: 'post.deleted', postId: 5, authorId: 3 },
      { type: 'profile.updated', userId: 3 },
      { type: 'comment.removed', commentIds: [6], postId: 5 },
      { type: 'account.suspended', userId: 3 },
      { type: 'account.deleted', userId: 3 },
    ];
    for (const event of showing) {
      await fill(cache);
      tell(event);
      expect({ event: event.type, kept: [await kept(cache, 1), await kept(cache, 2)] }).toEqual({
        event: event.type,
        kept: [false, false],
      });
    }
  });

  test('when an event arrives while a page is read, then that read is not kept', async () => {
    const { cache, tell } = subscribed();
    await cache.page(1, 'list', async () => {
      tell({ type: 'notification.created', notificationId: 1, userId: 1 });
      return '[]';
    });
    expect(await kept(cache, 1)).toBe(false);
  });
});
