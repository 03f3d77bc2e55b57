/**
 * Two apps in one process, each on its own embedded database: nothing of one (models, ids, read
 * caches, domain events) leaks into the other, and closing one leaves the other working. Before
 * the models were bound per connection, both apps would have written through mongoose's default
 * connection, i.e. into whichever database was connected last.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import request from 'supertest';
import { start } from '@campus/embedded-mongo';
import type { CampusApp } from '../src/app';
import { createModels, type Models } from '../src/models';
import { connectDatabase, type Database } from '../src/platform/db';
import { feed, publish } from './content';
import { buildTestApp, createMember } from './test-app';

interface Side {
  server: Awaited<ReturnType<typeof start>>;
  database: Database<Models>;
  app: CampusApp;
  http: () => ReturnType<typeof request>;
  /** The types of the events this side's app heard. */
  heard: string[];
  closed: boolean;
}

let dataDir = '';
const sides: Side[] = [];

async function open(name: string): Promise<Side> {
  const server = await start({ port: 0 });
  const database = await connectDatabase(server.uri, { dbName: name, models: createModels });
  const built = buildTestApp(database, path.join(dataDir, name));
  const heard: string[] = [];
  built.app.events.on(['post.created', 'post.liked'], (event) => heard.push(event.type));
  await built.app.ready();
  const side = {
    server,
    database,
    app: built.app,
    http: () => request(built.callback),
    heard,
    closed: false,
  };
  sides.push(side);
  return side;
}

async function close(side: Side): Promise<void> {
  if (side.closed) return;
  side.closed = true;
  await side.app.close();
  await side.database.close();
  await side.server.stop();
}

let a: Side;
let b: Side;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'campus-two-apps-'));
  a = await open('campus_a');
  b = await open('campus_b');
});

afterAll(async () => {
  for (const side of sides) await close(side);
  await fs.rm(dataDir, { recursive: true, force: true });
});

test('when two apps run in one process, then each has its own connection and models, and mongoose’s default connection is never used', () => {
  expect(a.database.connection).not.toBe(b.database.connection);
  expect(a.app.models.Post).not.toBe(b.app.models.Post);
  expect(a.app.models.Post.db).toBe(a.database.connection);
  expect(b.app.models.User.db).toBe(b.database.connection);
  expect(mongoose.connection.readyState).toBe(mongoose.ConnectionStates.disconnected);
  expect(mongoose.modelNames()).toEqual([]);
});

test('when members post through one app, then the other app sees neither them nor their posts, and ids are counted per database', async () => {
  const ada = await createMember(a.app, { name: 'Ada on A' });
  const post = await publish(a.http, ada, 'only on A');
  const bob = await createMember(b.app, { name: 'Bob on B' });

  // Each database counts its own ids: the first member of each is user 1.
  expect(ada.id).toBe(1);
  expect(bob.id).toBe(1);
  expect((await feed(a.http, ada)).map((p) => p.content)).toEqual(['only on A']);
  expect(await feed(b.http, bob)).toEqual([]);
  expect(await b.app.models.Post.countDocuments({})).toBe(0);
  expect(await b.app.models.User.findById(1).lean()).toMatchObject({ name: 'Bob on B' });
  await b
    .http()
    .get(`/api/posts/${post.id}`)
    .set('Authorization', bob.auth)
    .expect(404, { message: 'Post not found' });
});

test('when an app writes, then only it hears the event (the other app’s caches hear nothing)', async () => {
  const carol = await createMember(a.app, { name: 'Carol on A' });
  a.heard.length = 0;
  b.heard.length = 0;

  await publish(a.http, carol, 'announced on A');
  // B follows its own database's outbox: a post of its own reaches it, A's never does.
  const dave = await createMember(b.app, { name: 'Dave on B' });
  await publish(b.http, dave, 'announced on B');

  expect(a.heard).toEqual(['post.created']);
  expect(b.heard).toEqual(['post.created']);
});

test('when one app and its database are closed, then the other keeps reading and writing', async () => {
  const dave = await createMember(b.app, { name: 'Dave on B' });
  await close(a);
  expect(a.database.connection.readyState).toBe(mongoose.ConnectionStates.disconnected);

  expect(b.database.reachable).toBe(true);
  const post = await publish(b.http, dave, 'B still works');
  expect((await feed(b.http, dave)).map((p) => p.id)).toContain(post.id);
  await b
    .http()
    .post(`/api/posts/${post.id}/like`)
    .set('Authorization', dave.auth)
    .expect(200, { liked: true, likesCount: 1 });
  expect(await b.app.models.Post.findById(post.id).lean()).toMatchObject({ likesCount: 1 });
});
