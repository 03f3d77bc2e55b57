/**
 * The archive format of `embedded-mongo dump` / `restore` is mongodump's: our restore reads
 * archives made by the real mongodump (test/fixtures/README.md) and one built here byte by byte
 * from the format's specification, checks every CRC-64 as mongorestore does, and brings back
 * documents (every BSON type, byte for byte), indexes with their options, validators, views and
 * GridFS files. (That the real mongorestore reads our dumps is checked by
 * bench/mongo-tools-check.ts, where the real tools are at hand: see the README, "Backups".)
 */
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import {
  Decimal128,
  Long,
  MongoClient,
  MongoServerError,
  Timestamp,
  type Db,
  type Document,
} from 'mongodb';
import { serialize } from 'bson';
import { start } from '../src';
import type { RunningServer } from '../src/server';
import { compareFingerprints, dump, fingerprint, openArchive, restore } from '../src/backup';
import { crc64, Crc64 } from '../src/backup/crc64';
import {
  ATTACHMENT,
  ATTACHMENT_ID,
  AVATAR,
  AVATAR_ID,
  download,
  seedBackupDataset,
} from './support/backup-dataset';

const FIXTURES = path.join(__dirname, 'fixtures');
const fixture = (name: string) => fs.createReadStream(path.join(FIXTURES, name));

const servers: RunningServer[] = [];
const clients: MongoClient[] = [];

async function server(): Promise<{ uri: string; db: (name: string) => Db }> {
  const s = await start();
  servers.push(s);
  const uri = `${s.uri}/?directConnection=true`;
  const client = await MongoClient.connect(uri);
  clients.push(client);
  return { uri, db: (name) => client.db(name) };
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

/** Collects an async dump into one Buffer. */
async function dumpToBuffer(uri: string, gzip = false): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await dump({ uri, out, gzip });
  return Buffer.concat(chunks);
}

const indexesOf = async (db: Db, coll: string) =>
  Object.fromEntries(
    (await db.collection(coll).listIndexes().toArray()).map((i) => [i.name as string, i]),
  );

describe('CRC-64', () => {
  test('when computed as Go computes crc64.ECMA, then "123456789" gives the check value 0x995DC9BBDF1939FA', () => {
    expect(crc64(Buffer.from('123456789'))).toBe(0x995dc9bbdf1939fan);
  });

  test('when fed in pieces of any size, then it gives what it gives at once', () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 131 + 17) & 0xff));
    const whole = crc64(bytes);
    for (const step of [1, 3, 7, 8, 9, 64, 999]) {
      const c = new Crc64();
      for (let i = 0; i < bytes.length; i += step) c.update(bytes.subarray(i, i + step));
      expect(c.digest()).toBe(whole);
    }
    expect(crc64(Buffer.alloc(0))).toBe(0n);
  });
});

describe('archives made by the real mongodump', () => {
  test('when the archives of mongodump r3.4.3, r4.1.3 (--oplog) and 100.8.0 are read, then every namespace is complete and its CRC-64 matches the one Go computed', async () => {
    const seen: Record<string, number> = {};
    for (const name of [
      'mongo-tools-test.bar.archive',
      'mongo-tools-dump-w-oplog.archive',
      'mongodump-100.8.0.archive',
    ]) {
      const archive = await openArchive(fixture(name));
      expect(archive.header.version).toBe('0.1');
      for await (const b of archive.blocks())
        if (b.kind === 'end') seen[`${name} ${b.db}.${b.collection}`] = b.count;
    }
    expect(seen).toEqual({
      'mongo-tools-test.bar.archive admin.system.version': 1,
      'mongo-tools-test.bar.archive test.bar': 1,
      'mongo-tools-dump-w-oplog.archive admin.system.version': 1,
      'mongo-tools-dump-w-oplog.archive test.foo': 25,
      'mongo-tools-dump-w-oplog.archive .oplog': 18,
      'mongodump-100.8.0.archive campus.users': 3,
      'mongodump-100.8.0.archive campus.sessions': 2,
      'mongodump-100.8.0.archive campus.posts': 120,
      'mongodump-100.8.0.archive campus.validated': 1,
      'mongodump-100.8.0.archive campus.recent_posts': 0,
      'mongodump-100.8.0.archive campus.avatars.files': 1,
      'mongodump-100.8.0.archive campus.avatars.chunks': 5,
      'mongodump-100.8.0.archive campus.fs.files': 1,
      'mongodump-100.8.0.archive campus.fs.chunks': 1,
    });
  });

  test('when the real mongodump 100.8.0 archive is restored, then documents, indexes with their options, the validator, the view and the GridFS files are as in the database it was dumped from', async () => {
    const source = await server();
    await seedBackupDataset(source.db('campus'));
    const target = await server();
    const result = await restore({ uri: target.uri, input: fixture('mongodump-100.8.0.archive') });
    expect(result.serverVersion).toBe('7.0.0');
    expect(result.skipped).toEqual([]);

    // Byte for byte (the fingerprint hashes documents as the server sends them), but for what
    // GridFS makes up at each upload: the files' upload dates and the chunks' ObjectIds.
    const gridFs = ['*.files', '*.chunks'];
    const a = await fingerprint({ uri: source.uri, nsExclude: gridFs });
    const b = await fingerprint({ uri: target.uri, nsExclude: gridFs });
    expect(Object.keys(b.collections)).toHaveLength(5);
    expect(compareFingerprints(a, b)).toEqual([]);
    const gridFsDocs = (db: Db, coll: string) =>
      db
        .collection(coll)
        .find({}, { projection: coll.endsWith('.files') ? { uploadDate: 0 } : { _id: 0 } })
        .sort({ files_id: 1, n: 1, _id: 1 })
        .toArray();
    for (const coll of ['avatars.files', 'avatars.chunks', 'fs.files', 'fs.chunks']) {
      const restored = await gridFsDocs(target.db('campus'), coll);
      expect(restored.length).toBeGreaterThan(0);
      expect(restored).toEqual(await gridFsDocs(source.db('campus'), coll));
    }

    const db = target.db('campus');
    expect(await download(db, 'avatars', AVATAR_ID)).toEqual(AVATAR);
    expect(await download(db, 'fs', ATTACHMENT_ID)).toEqual(ATTACHMENT);
    const users = await db
      .collection('users')
      .findOne({ email: 'ada@campus.edu' }, { promoteValues: false });
    expect(users?.long).toEqual(Long.fromString('9007199254740993'));
    expect(users?.decimal).toEqual(Decimal128.fromString('12.345'));
    expect(users?.ts).toEqual(new Timestamp({ t: 1700000000, i: 3 }));

    const sessions = await indexesOf(db, 'sessions');
    expect(sessions.expires).toMatchObject({ key: { expiresAt: 1 }, expireAfterSeconds: 3600 });
    const posts = await indexesOf(db, 'posts');
    expect(posts.tag_sparse).toMatchObject({ sparse: true });
    expect(posts.live_recent).toMatchObject({ partialFilterExpression: { deletedAt: null } });
    expect(posts.author_recent).toMatchObject({ key: { authorId: 1, createdAt: -1 } });
    expect((await indexesOf(db, 'users')).email_unique).toMatchObject({ unique: true });
    await expect(
      db.collection('users').insertOne({ email: 'ada@campus.edu' }),
    ).rejects.toMatchObject({ code: 11000 });
    await expect(db.collection('validated').insertOne({ n: -1 })).rejects.toMatchObject({
      code: 121,
    });
    expect(await db.collection('recent_posts').countDocuments()).toBe(108);
  });

  test('when old archives are restored, then their collections come back and the server databases and the oplog are left out, saying so', async () => {
    const target = await server();
    const bar = await restore({ uri: target.uri, input: fixture('mongo-tools-test.bar.archive') });
    expect(bar.collections.map((c) => [`${c.db}.${c.collection}`, c.count])).toEqual([
      ['test.bar', 1],
    ]);
    expect(bar.skipped).toEqual([
      { ns: 'admin.system.version', reason: "the server's own database" },
    ]);
    expect(await target.db('test').collection('bar').countDocuments()).toBe(1);

    const oplog = await restore({
      uri: target.uri,
      input: fixture('mongo-tools-dump-w-oplog.archive'),
    });
    expect(oplog.skipped.map((s) => s.ns)).toEqual(['.oplog', 'admin.system.version']);
    expect(await target.db('test').collection('foo').countDocuments()).toBe(25);
  });
});

describe('an archive built byte by byte from the format specification', () => {
  // Two documents and the CRC-64 the real mongodump 100.8.0 wrote for them (campus.users of an
  // archive it made of a server holding exactly these two).
  const DOC_1 = Buffer.from(
    // { _id: 1, name: 'a', email: 'a@x', n: 1.5 }
    '34000000' +
      '105f6964000100000002' +
      '6e616d65000200000061000265' +
      '6d61696c000400000061407800' +
      '016e00000000000000f83f' +
      '00',
    'hex',
  );
  const DOC_2 = Buffer.from(
    // { _id: 2, name: 'b', email: 'b@x', at: new Date(0) }
    '35000000' +
      '105f6964000200000002' +
      '6e616d65000200000062000265' +
      '6d61696c000400000062407800' +
      '09617400' +
      '0000000000000000' +
      '00',
    'hex',
  );
  const USERS_CRC = Long.fromString('3179580717380152014');
  const MAGIC = Buffer.from('6de29981', 'hex'); // 0x8199e26d, little-endian
  const TERMINATOR = Buffer.from('ffffffff', 'hex');
  const header = (db: string, collection: string, EOF: boolean, CRC: Long) =>
    serialize({ db, collection, EOF, CRC });

  function archive(usersCrc = USERS_CRC, doc2 = DOC_2): Buffer {
    const meta = (db: string, collection: string, metadata: string) =>
      serialize({ db, collection, metadata, size: 0, type: db ? 'collection' : '' });
    return Buffer.concat([
      MAGIC,
      serialize({
        concurrent_collections: 4,
        version: '0.1',
        server_version: '7.0.0',
        tool_version: 'by hand',
      }),
      meta(
        'campus',
        'users',
        '{"indexes":[{"v":{"$numberInt":"2"},"key":{"_id":{"$numberInt":"1"}},"name":"_id_"},' +
          '{"v":{"$numberInt":"2"},"unique":true,"key":{"email":{"$numberInt":"1"}},"name":"email_1"}],' +
          '"collectionName":"users","type":"collection"}',
      ),
      meta('campus', 'empty', '{"options":{},"indexes":[]}'),
      meta('', 'oplog', ''),
      TERMINATOR,
      // users' first segment, the empty collection's, users' second, then the EOF blocks.
      header('campus', 'users', false, Long.ZERO),
      DOC_1,
      TERMINATOR,
      header('campus', 'empty', false, Long.ZERO),
      TERMINATOR,
      header('campus', 'users', false, Long.ZERO),
      doc2,
      TERMINATOR,
      header('campus', 'empty', true, Long.ZERO),
      TERMINATOR,
      header('', 'oplog', true, Long.ZERO),
      TERMINATOR,
      header('campus', 'users', true, usersCrc),
      TERMINATOR,
    ]);
  }

  test('when restored, then interleaved segments join, an empty collection is created and the oplog is left out', async () => {
    const target = await server();
    const result = await restore({ uri: target.uri, input: Readable.from([archive()]) });
    expect(result.toolVersion).toBe('by hand');
    expect(result.collections).toEqual([
      { db: 'campus', collection: 'users', type: 'collection', count: 2, failed: 0, indexes: 1 },
      { db: 'campus', collection: 'empty', type: 'collection', count: 0, failed: 0, indexes: 0 },
    ]);
    const db = target.db('campus');
    expect(await db.collection('users').find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, name: 'a', email: 'a@x', n: 1.5 },
      { _id: 2, name: 'b', email: 'b@x', at: new Date(0) },
    ]);
    expect((await indexesOf(db, 'users')).email_1).toMatchObject({ unique: true });
    expect((await db.listCollections({ name: 'empty' }).toArray()).length).toBe(1);
  });

  test('when it comes gzipped, or one byte at a time, then it is read all the same', async () => {
    const target = await server();
    const gz = await restore({
      uri: target.uri,
      input: Readable.from([gzipSync(archive())]),
      drop: true,
    });
    expect(gz.collections[0]?.count).toBe(2);
    const bytes = archive();
    const trickle = Readable.from(
      (function* () {
        for (let i = 0; i < bytes.length; i++) yield bytes.subarray(i, i + 1);
      })(),
    );
    const slow = await restore({ uri: target.uri, input: trickle, drop: true });
    expect(slow.collections[0]?.count).toBe(2);
  });

  test('when a document was changed, the CRC is wrong, or the archive is cut short, then the restore stops and says where', async () => {
    const changed = Buffer.from(DOC_2);
    changed[changed.length - 2] = 1; // the date's last byte
    const cases: Array<[Buffer, RegExp]> = [
      [archive(USERS_CRC, changed), /CRC mismatch for namespace campus\.users/],
      [archive(Long.fromNumber(1)), /CRC mismatch for namespace campus\.users/],
      [archive().subarray(0, archive().length - 10), /ends/],
      [archive().subarray(0, 300), /ends/],
      [Buffer.from('not an archive at all'), /magic number/],
    ];
    for (const [bytes, message] of cases)
      await expect(restore({ input: Readable.from([bytes]), dryRun: true })).rejects.toThrow(
        message,
      );
  });
});

describe('dump and restore', () => {
  test('when a database is dumped (plain and gzipped) and restored into an empty server, then both fingerprints are equal, GridFS files download and the indexes keep their options', async () => {
    const source = await server();
    await seedBackupDataset(source.db('campus'));
    const before = await fingerprint({ uri: source.uri });
    for (const gzip of [false, true]) {
      const bytes = await dumpToBuffer(source.uri, gzip);
      expect(bytes[0] === 0x1f && bytes[1] === 0x8b).toBe(gzip);
      const target = await server();
      await restore({ uri: target.uri, input: Readable.from([bytes]) });
      const after = await fingerprint({ uri: target.uri });
      expect(Object.keys(after.collections)).toHaveLength(9);
      expect(compareFingerprints(before, after)).toEqual([]);
      const db = target.db('campus');
      expect(await download(db, 'avatars', AVATAR_ID)).toEqual(AVATAR);
      expect(await download(db, 'fs', ATTACHMENT_ID)).toEqual(ATTACHMENT);
      expect((await indexesOf(db, 'sessions')).expires).toMatchObject({ expireAfterSeconds: 3600 });
    }
  });

  test('when restored over changed data, then --drop brings back the dump exactly, and without it the documents already there are counted as duplicates', async () => {
    const source = await server();
    await seedBackupDataset(source.db('campus'));
    const before = await fingerprint({ uri: source.uri });
    const bytes = await dumpToBuffer(source.uri);
    const posts = source.db('campus').collection<Document & { _id: number }>('posts');
    await posts.deleteMany({ _id: { $lte: 10 } });
    await posts.updateOne({ _id: 50 }, { $set: { body: 'edited' } });
    await posts.insertOne({ _id: 1000, body: 'new' });

    const merged = await restore({
      uri: source.uri,
      input: Readable.from([bytes]),
      nsInclude: ['campus.posts'],
    });
    expect(merged.collections).toEqual([
      { db: 'campus', collection: 'posts', type: 'collection', count: 10, failed: 110, indexes: 3 },
    ]);
    expect(await posts.countDocuments()).toBe(121);

    await restore({ uri: source.uri, input: Readable.from([bytes]), drop: true });
    expect(compareFingerprints(before, await fingerprint({ uri: source.uri }))).toEqual([]);
  });

  test('when restored with --nsFrom / --nsTo, then the collections land under the new names', async () => {
    const source = await server();
    await seedBackupDataset(source.db('campus'));
    const bytes = await dumpToBuffer(source.uri);
    const result = await restore({
      uri: source.uri,
      input: Readable.from([bytes]),
      nsInclude: ['campus.avatars.*'],
      nsFrom: ['campus.avatars.*'],
      nsTo: ['copy.pictures.*'],
    });
    expect(result.collections.map((c) => `${c.db}.${c.collection}`).sort()).toEqual([
      'copy.pictures.chunks',
      'copy.pictures.files',
    ]);
    expect(await download(source.db('copy'), 'pictures', AVATAR_ID)).toEqual(AVATAR);
  });

  test('when a dump is asked of a namespace pattern, then only those collections are in the archive', async () => {
    const source = await server();
    await seedBackupDataset(source.db('campus'));
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const result = await dump({ uri: source.uri, out, nsInclude: ['campus.fs.*', 'campus.users'] });
    expect(result.collections.map((c) => c.collection)).toEqual(['fs.chunks', 'fs.files', 'users']);
    const archive = await openArchive(Readable.from([Buffer.concat(chunks)]));
    expect(archive.collections.map((c) => c.collection)).toEqual([
      'fs.chunks',
      'fs.files',
      'users',
    ]);
    expect(JSON.parse(archive.collections[2]?.metadata ?? '')).toMatchObject({
      collectionName: 'users',
      type: 'collection',
      indexes: [{ name: '_id_' }, { name: 'email_unique', unique: true }],
    });
  });
});

test('when a snapshot read asks for a point in time the server no longer keeps, then it answers SnapshotTooOld', async () => {
  const { db } = await server();
  const coll = db('t').collection('c');
  await coll.insertOne({ n: 1 });
  const reply = await db('t').command({ find: 'c', readConcern: { level: 'snapshot' } });
  const at = (reply.cursor as { atClusterTime: unknown }).atClusterTime;
  await coll.insertOne({ n: 2 });
  // The point is kept: a read at it sees one document.
  const again = await db('t').command({
    find: 'c',
    readConcern: { level: 'snapshot', atClusterTime: at },
  });
  expect((again.cursor as { firstBatch: unknown[] }).firstBatch).toHaveLength(1);
  await db('t')
    .collection('other')
    .drop()
    .catch(() => undefined);
  await db('t').createCollection('dropme');
  await db('t').collection('dropme').drop();
  const error = await db('t')
    .command({ find: 'c', readConcern: { level: 'snapshot', atClusterTime: at } })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MongoServerError);
  expect(error).toMatchObject({ code: 239, codeName: 'SnapshotTooOld' });
});
