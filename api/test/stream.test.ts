/**
 * The live stream (`GET /api/stream`) over a real socket, with two apps on two connections to one
 * database, as two API processes behind a load balancer: what one app handles reaches the streams
 * open on the other through the change stream.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { start } from '@campus/embedded-mongo';
import {
  ACCESS_COOKIE,
  SESSION_SIGNED_OUT_MESSAGE,
  STREAM_MAX_PER_MEMBER,
  streamEventSchemas,
  type Notification,
} from '@campus/contracts';
import type { CampusApp } from '../src/app';
import { createModels, type Models } from '../src/models';
import { connectDatabase, type Database } from '../src/platform/db';
import { suspendThrough } from './admin-support';
import { TestClock } from './clock';
import { eventually } from './eventually';
import { publish } from './content';
import { openStream, type OpenedStream, type StreamEvent } from './stream-client';
import { buildTestApp, createMember, TEST_JWT_SECRET, TEST_PASSWORD } from './test-app';

interface Side {
  database: Database<Models>;
  app: CampusApp;
  http: () => ReturnType<typeof request>;
}

let server: Awaited<ReturnType<typeof start>>;
let dataDir = '';
let a: Side;
let b: Side;
let listener: http.Server;
let baseUrl = '';
const streams: OpenedStream[] = [];

/** B's clock: a revocation through B comes after the tokens the test made, without a wait. */
const clockOfB = new TestClock();

async function side(name: string, clock?: TestClock): Promise<Side> {
  const database = await connectDatabase(server.uri, {
    dbName: 'campus_stream',
    models: createModels,
  });
  const built = buildTestApp(database, path.join(dataDir, name), {}, clock);
  return { database, app: built.app, http: () => request(built.callback) };
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'campus-stream-'));
  server = await start({ port: 0 });
  a = await side('a');
  b = await side('b', clockOfB);
  listener = http.createServer(a.app.callback());
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
});

afterEach(async () => {
  for (const s of streams.splice(0)) s.close();
  await Promise.all(streams.map((s) => s.ended));
});

afterAll(async () => {
  await a.app.close();
  await b.app.close();
  listener.closeAllConnections();
  await new Promise((resolve) => listener.close(resolve));
  await a.database.close();
  await b.database.close();
  await server.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** A stream on app A (the process the member is connected to). */
async function connect(
  auth: string | undefined,
  options: Parameters<typeof openStream>[2] = {},
): Promise<OpenedStream> {
  const s = await openStream(baseUrl, auth, options);
  streams.push(s);
  return s;
}

const named = (event: string) => (e: StreamEvent) => e.event === event;

async function waitUntil(check: () => boolean): Promise<void> {
  expect(await eventually(check)).toBe(true);
}

describe('GET /api/stream', () => {
  test('when it opens, then it is an unbuffered, uncompressed event stream that starts with the unread count', async () => {
    const ada = await createMember(a.app, { name: 'Ada' });
    const s = await connect(ada.auth, { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(s.headers.get('cache-control')).toContain('no-transform');
    expect(s.headers.get('x-accel-buffering')).toBe('no');
    expect(s.headers.get('content-encoding')).toBeNull();
    const unread = await s.next(named('unread'));
    expect(streamEventSchemas.unread.parse(unread.data)).toEqual({ count: 0 });
    expect(s.comments).toContain('connected');
  });

  test('when the shell preflights a reconnect, then it may send Authorization and Last-Event-ID', async () => {
    const res = await a
      .http()
      .options('/api/stream')
      .set('Origin', 'http://localhost:3000')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization,last-event-id');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(res.headers['access-control-allow-headers']).toMatch(/Last-Event-ID/);
    expect(res.headers['access-control-allow-headers']).toMatch(/Authorization/);
  });

  test('when there is no token or the tabs are malformed, then it is a 401 or a 400 and no stream opens', async () => {
    const ada = await createMember(a.app);
    expect((await connect(undefined)).status).toBe(401);
    const bad = await connect(ada.auth, { query: 'tabs=for-you:abc' });
    expect(bad.status).toBe(400);
    const res = await a.http().get('/api/stream?tabs=nope:1').set('Authorization', ada.auth);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^tabs must be/);
    expect(a.app.streams.size).toBe(0);
  });

  test('when a post is liked through another API process, then the notification and the new unread count reach the stream on this one', async () => {
    const ada = await createMember(a.app, { name: 'Ada' });
    const bob = await createMember(a.app, { name: 'Bob' });
    const post = await publish(a.http, ada, 'a post worth liking');
    const s = await connect(ada.auth);
    await s.next(named('unread'));
    const from = s.events.length;

    await b.http().post(`/api/posts/${post.id}/like`).set('Authorization', bob.auth).expect(200);

    const event = await s.next(named('notification'), from);
    const notification = streamEventSchemas.notification.parse(event.data) as Notification;
    expect(notification).toMatchObject({
      type: 'like',
      isRead: false,
      actor: { id: bob.id, name: 'Bob' },
      post: { id: post.id, content: 'a post worth liking' },
    });
    // Exactly as the list shows it, and its SSE id is the notification's id.
    const list = await a.http().get('/api/notifications').set('Authorization', ada.auth);
    expect(list.body[0]).toEqual(notification);
    expect(event.id).toBe(String(notification.id));
    expect(
      (await s.next((e) => e.event === 'unread' && (e.data as { count: number }).count === 1, from))
        .data,
    ).toEqual({ count: 1 });

    // Marking it read (through B again) brings the count down.
    const read = s.events.length;
    await b.http().put('/api/notifications/read-all').set('Authorization', ada.auth).expect(200);
    expect((await s.next(named('unread'), read)).data).toEqual({ count: 0 });
  });

  test('when several members hold streams, then no stream opens a change stream of its own (the app follows one, the outbox)', async () => {
    const members = await Promise.all([1, 2, 3].map(() => createMember(a.app)));
    const opened = await Promise.all(members.map((m) => connect(m.auth)));
    await Promise.all(opened.map((s) => s.next(named('unread'))));
    const db = a.database.connection.db!;
    const watch = jest.spyOn(db, 'watch');
    const more = await connect(members[0]!.auth);
    await more.next(named('unread'));
    const collectionWatch = jest.spyOn(a.database.models.Outbox.collection, 'watch');
    const yetMore = await connect(members[1]!.auth);
    await yetMore.next(named('unread'));
    expect(watch).not.toHaveBeenCalled();
    expect(collectionWatch).not.toHaveBeenCalled();
    watch.mockRestore();
    collectionWatch.mockRestore();
    expect(a.app.streams.size).toBe(5);
  });

  test('when a client reconnects with Last-Event-ID, then everything it missed is replayed first, once, oldest first', async () => {
    const ada = await createMember(a.app, { name: 'Ada' });
    const [bob, carol, dan] = await Promise.all(
      ['Bob', 'Carol', 'Dan'].map((name) => createMember(a.app, { name })),
    );
    const post = await publish(a.http, ada, 'resume me');
    const first = await connect(ada.auth);
    await first.next(named('unread'));
    await b.http().post(`/api/posts/${post.id}/like`).set('Authorization', bob!.auth).expect(200);
    const seen = await first.next(named('notification'));
    first.close();
    await first.ended;
    await waitUntil(() => a.app.streams.size === 0);

    // Missed while disconnected.
    await b.http().post(`/api/posts/${post.id}/like`).set('Authorization', carol!.auth).expect(200);
    await b.http().post(`/api/users/${ada.id}/follow`).set('Authorization', dan!.auth).expect(200);

    const again = await connect(ada.auth, { lastEventId: seen.id });
    await again.next(named('unread'));
    const replayed = again.events.filter((e) => e.event === 'notification');
    expect(replayed.map((e) => (e.data as Notification).type)).toEqual(['like', 'follow']);
    expect(
      replayed.map((e) => (e.data as Notification & { actor: { id: number } }).actor.id),
    ).toEqual([carol!.id, dan!.id]);
    expect(Number(replayed[0]!.id)).toBeLessThan(Number(replayed[1]!.id));
    expect(again.events.findIndex(named('unread'))).toBeGreaterThan(
      again.events.indexOf(replayed[1]!),
    );
    expect(again.events.find(named('unread'))!.data).toEqual({ count: 3 });
  });

  test(`when a member opens more than ${STREAM_MAX_PER_MEMBER} streams, then the oldest closes`, async () => {
    const ada = await createMember(a.app);
    const opened: OpenedStream[] = [];
    for (let i = 0; i < STREAM_MAX_PER_MEMBER; i++) {
      const s = await connect(ada.auth);
      await s.next(named('unread'));
      opened.push(s);
    }
    expect(opened.some((s) => s.isEnded())).toBe(false);
    const sixth = await connect(ada.auth);
    await sixth.next(named('unread'));
    await opened[0]!.ended;
    expect(opened.slice(1).some((s) => s.isEnded())).toBe(false);
    expect(a.app.streams.size).toBe(STREAM_MAX_PER_MEMBER);
  });

  test(`when a member's streams are spread over two API processes, then still at most ${STREAM_MAX_PER_MEMBER} stay open: the oldest closes wherever it is`, async () => {
    const ada = await createMember(a.app);
    const serverB = http.createServer(b.app.callback());
    await new Promise<void>((resolve) => serverB.listen(0, '127.0.0.1', resolve));
    const urlB = `http://127.0.0.1:${(serverB.address() as AddressInfo).port}`;
    try {
      const opened: OpenedStream[] = [];
      for (let i = 0; i < STREAM_MAX_PER_MEMBER; i++) {
        // A, B, A, B, A: the oldest is on A.
        const s = i % 2 === 0 ? await connect(ada.auth) : await openStream(urlB, ada.auth);
        if (i % 2 === 1) streams.push(s);
        await s.next(named('unread'));
        opened.push(s);
      }
      expect(a.app.streams.size + b.app.streams.size).toBe(STREAM_MAX_PER_MEMBER);
      const sixth = await openStream(urlB, ada.auth);
      streams.push(sixth);
      await sixth.next(named('unread'));
      // The oldest, on A, ends because of a stream opened on B.
      await opened[0]!.ended;
      expect(opened.slice(1).some((s) => s.isEnded())).toBe(false);
      await waitUntil(() => a.app.streams.size + b.app.streams.size === STREAM_MAX_PER_MEMBER);
      expect(await a.app.models.LiveStream.countDocuments({ userId: ada.id })).toBe(
        STREAM_MAX_PER_MEMBER,
      );
    } finally {
      for (const s of streams.splice(0)) s.close();
      serverB.closeAllConnections();
      await new Promise((resolve) => serverB.close(resolve));
    }
  });

  test('when the member signs out everywhere through another process, then the stream ends and a reconnect is refused', async () => {
    const ada = await createMember(a.app);
    const bob = await createMember(a.app);
    const s = await connect(ada.auth);
    const other = await connect(bob.auth);
    await Promise.all([s.next(named('unread')), other.next(named('unread'))]);
    // The tokens are older than the revocation.
    clockOfB.advance(5);
    await b.http().post('/api/auth/logout-all').set('Authorization', ada.auth).expect(204);
    await s.ended;
    expect(other.isEnded()).toBe(false);
    expect((await connect(ada.auth)).status).toBe(401);
  });

  test('when a browser opens the stream with its session cookie only, then it streams; signing that session out through another process ends it and says why', async () => {
    const ada = await createMember(a.app);
    const login = await a
      .http()
      .post('/api/auth/login')
      .send({ email: ada.email, password: TEST_PASSWORD })
      .expect(200);
    const cookies = (login.headers['set-cookie'] as unknown as string[]).map(
      (c) => c.split(';')[0]!,
    );
    const access = cookies.find((c) => c.startsWith(`${ACCESS_COOKIE}=`))!;
    const s = await connect(undefined, { headers: { Cookie: access } });
    expect(s.status).toBe(200);
    await s.next(named('unread'));
    const [session] = (
      await b.http().get('/api/auth/sessions').set('Authorization', ada.auth).expect(200)
    ).body as Array<{ id: string }>;
    await b
      .http()
      .delete(`/api/auth/sessions/${session!.id}`)
      .set('Authorization', ada.auth)
      .expect(204);
    await s.ended;
    const again = await a.http().get('/api/stream').set('Cookie', access);
    expect(again.status).toBe(401);
    expect(again.body.message).toBe(SESSION_SIGNED_OUT_MESSAGE);
  });

  test('when a new connection names the last event in the query (a new EventSource cannot send Last-Event-ID), then what it missed is replayed', async () => {
    const ada = await createMember(a.app, { name: 'Ada' });
    const bob = await createMember(a.app, { name: 'Bob' });
    const carol = await createMember(a.app, { name: 'Carol' });
    const post = await publish(a.http, ada, 'resume me by query');
    const first = await connect(ada.auth);
    await first.next(named('unread'));
    await b.http().post(`/api/posts/${post.id}/like`).set('Authorization', bob.auth).expect(200);
    const seen = await first.next(named('notification'));
    first.close();
    await first.ended;
    await b.http().post(`/api/posts/${post.id}/like`).set('Authorization', carol.auth).expect(200);
    const again = await connect(ada.auth, { query: `lastEventId=${seen.id}` });
    await again.next(named('unread'));
    const replayed = again.events.filter((e) => e.event === 'notification');
    expect(replayed.map((e) => (e.data as { actor: { id: number } }).actor.id)).toEqual([carol.id]);
  });

  test('when the administrator suspends the member through another process, then the stream ends', async () => {
    const ada = await createMember(a.app);
    const s = await connect(ada.auth);
    await s.next(named('unread'));
    // The administrator (ADMIN_USER_ID 107); members' ids are taken past it.
    await b.app.appContext.ids.reserveIdsUpTo('users', 107);
    const admin = await createMember(b.app, { id: 107 });
    await suspendThrough(b.http, admin, ada.id);
    await s.ended;
    expect((await connect(ada.auth)).status).toBe(401);
  });

  test('when the member only becomes active again, then the stream stays open', async () => {
    const ada = await createMember(a.app);
    const s = await connect(ada.auth);
    await s.next(named('unread'));
    await b.app.models.User.updateOne({ _id: ada.id }, { $set: { lastActiveAt: new Date() } });
    await b
      .http()
      .put(`/api/users/${ada.id}`)
      .set('Authorization', ada.auth)
      .send({ name: ada.name, bio: 'still here' })
      .expect(200);
    // A notification after both writes still arrives on the same stream.
    const bob = await createMember(a.app);
    await b.http().post(`/api/users/${ada.id}/follow`).set('Authorization', bob.auth).expect(200);
    await s.next(named('notification'));
    expect(s.isEnded()).toBe(false);
  });

  test('when the token expires, then the stream ends', async () => {
    const ada = await createMember(a.app);
    const token = jwt.sign({ iat_ms: Date.now() }, TEST_JWT_SECRET, {
      algorithm: 'HS256',
      subject: String(ada.id),
      issuer: 'campus-api',
      expiresIn: 3,
    });
    const { exp } = jwt.decode(token) as { exp: number };
    const s = await connect(`Bearer ${token}`);
    // The server accepted the token and opened the stream (a first event is not awaited: on a
    // loaded machine the expiry can come before the unread count's query answers)…
    expect(s.status).toBe(200);
    await s.ended;
    expect(s.isEnded()).toBe(true);
    // …and ended it because the token expired, not at once.
    expect(Date.now()).toBeGreaterThanOrEqual(exp * 1000 - 50);
  });

  test('when others post, then each followed tab counts the posts newer than the client’s newest, its own posts aside', async () => {
    const ada = await createMember(a.app, { name: 'Ada' });
    const friend = await createMember(a.app, { name: 'Friend' });
    const stranger = await createMember(a.app, { name: 'Stranger' });
    await a
      .http()
      .post(`/api/users/${friend.id}/follow`)
      .set('Authorization', ada.auth)
      .expect(200);
    const newest = await publish(a.http, stranger, 'already shown');
    const missed = await publish(a.http, friend, 'posted before the stream opened');

    const s = await connect(ada.auth, {
      query: `tabs=for-you:${newest.id},following:${newest.id}`,
    });
    const counts = () =>
      Object.fromEntries(
        s.events.filter(named('posts')).map((e) => {
          const { tab, count } = streamEventSchemas.posts.parse(e.data);
          return [tab, count];
        }),
      );
    await s.next(named('posts'));
    await s.next((e) => e.event === 'posts' && (e.data as { tab: string }).tab === 'following');
    expect(counts()).toEqual({ 'for-you': 1, following: 1 });
    expect(missed.id).toBeGreaterThan(newest.id);

    const from = s.events.length;
    await publish(b.http, stranger, 'only For You counts this');
    await s.next(named('posts'), from);
    expect(counts()).toEqual({ 'for-you': 2, following: 1 });

    const mark = s.events.length;
    await publish(b.http, ada, 'my own');
    await publish(b.http, friend, 'both count this');
    await s.next(
      (e) => e.event === 'posts' && (e.data as { tab: string }).tab === 'following',
      mark,
    );
    expect(counts()).toEqual({ 'for-you': 3, following: 2 });
  });

  test('when a member follows a tag, then Following counts its posts by others, missed and live (issue 40)', async () => {
    const ada = await createMember(a.app, { name: 'Ada' });
    const stranger = await createMember(a.app, { name: 'Stranger' });
    await a.http().post('/api/tags/livetag/follow').set('Authorization', ada.auth).expect(200);
    const newest = await publish(a.http, stranger, 'already shown');
    await publish(a.http, stranger, 'missed, with #LiveTag');
    const s = await connect(ada.auth, { query: `tabs=following:${newest.id}` });
    const following = () =>
      s.events
        .filter(named('posts'))
        .map((e) => streamEventSchemas.posts.parse(e.data))
        .filter((e) => e.tab === 'following')
        .at(-1)?.count;
    await s.next((e) => e.event === 'posts' && (e.data as { tab: string }).tab === 'following');
    expect(following()).toBe(1);
    const mark = s.events.length;
    await publish(b.http, stranger, 'not tagged');
    await publish(b.http, ada, 'my own #livetag');
    await publish(b.http, stranger, 'live, with #livetag');
    await s.next(
      (e) => e.event === 'posts' && (e.data as { tab: string }).tab === 'following',
      mark,
    );
    // In order: the untagged post and Ada's own, had they counted, would have come first.
    await waitUntil(() => following() === 2);
    const after = s.events
      .slice(mark)
      .filter((e) => e.event === 'posts' && (e.data as { tab: string }).tab === 'following');
    expect(after).toHaveLength(1);
  });

  test('when the client hangs up, then the app forgets the stream', async () => {
    const ada = await createMember(a.app);
    const s = await connect(ada.auth);
    await s.next(named('unread'));
    expect(a.app.streams.size).toBe(1);
    s.close();
    await waitUntil(() => a.app.streams.size === 0);
  });

  test('when the app closes, then its streams end', async () => {
    const extra = await side('closing');
    const server2 = http.createServer(extra.app.callback());
    await new Promise<void>((resolve) => server2.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server2.address() as AddressInfo).port}`;
    const ada = await createMember(extra.app);
    const s = await openStream(url, ada.auth);
    await s.next(named('unread'));
    await extra.app.close();
    await s.ended;
    expect(extra.app.streams.size).toBe(0);
    server2.closeAllConnections();
    await new Promise((resolve) => server2.close(resolve));
    await extra.database.close();
  });
});
