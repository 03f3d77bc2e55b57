import { start } from '@campus/embedded-mongo';
import { Schema } from 'mongoose';
import { connectDatabase, type Database } from './db';
import { announceWrites, changeToWriteEvent, followChanges, type WriteEvent } from './write-events';

let server: Awaited<ReturnType<typeof start>>;
/** The connection that follows (one API process) and another that writes (another process). */
let follower: Database;
let writer: Database;

beforeAll(async () => {
  server = await start({ port: 0, enableTestCommands: true });
  follower = await connectDatabase(server.uri, { dbName: 'write_events_test' });
  writer = await connectDatabase(server.uri, { dbName: 'write_events_test' });
});

afterAll(async () => {
  await follower.close();
  await writer.close();
  await server.stop();
});

const collection = (name: string) => writer.connection.db!.collection<{ _id: number }>(name);

/** Asks `check` again (up to 200 times, 50 ms apart) while change events are on their way. */
async function eventually(check: () => boolean | Promise<boolean>): Promise<boolean> {
  for (let tries = 0; tries < 200; tries += 1) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

type Seen = Array<[string, WriteEvent]>;

/** Follows `collections`; resolves once the stream is open (a probe write came through). */
async function follow(collections: string[], seen: Seen, errors: unknown[] = []) {
  const probes = new Set<unknown>();
  let opened = false;
  const stop = followChanges(
    follower.connection,
    collections,
    (name, event) => {
      if (probes.has(event.documents?.[0]?._id)) opened = true;
      else seen.push([name, event]);
    },
    (err) => errors.push(err),
  );
  let probe = 1_000_000 + Math.floor(Math.random() * 1_000_000);
  const open = await eventually(async () => {
    probes.add((probe += 1));
    await collection(collections[0]!).insertOne({ _id: probe });
    return opened;
  });
  expect(open).toBe(true);
  return stop;
}

describe('followChanges', () => {
  test('when another connection writes to a followed collection, then each write arrives as the write event it describes; other collections are not followed', async () => {
    const seen: Seen = [];
    const stop = await follow(['posts', 'users'], seen);
    try {
      await collection('posts').insertOne({ _id: 1, authorId: 7 } as never);
      await collection('posts').updateOne({ _id: 1 }, { $inc: { likesCount: 1 } });
      await collection('comments').insertOne({ _id: 1 });
      await collection('users').updateOne(
        { _id: 3 },
        { $set: { lastActiveAt: new Date(), name: 'A' }, $unset: { bio: '' } },
        { upsert: true },
      );
      await collection('posts').deleteOne({ _id: 1 });
      expect(await eventually(() => seen.length >= 4)).toBe(true);
      expect(seen).toEqual([
        ['posts', { documents: [{ _id: 1, authorId: 7 }], inserted: true }],
        ['posts', { filter: { _id: 1 }, update: { $set: { likesCount: 1 } } }],
        [
          'users',
          { documents: [{ _id: 3, name: 'A', lastActiveAt: expect.any(Date) }], inserted: true },
        ],
        ['posts', { filter: { _id: 1 }, deleted: true }],
      ]);
      await collection('users').updateOne({ _id: 3 }, { $set: { name: 'B' }, $unset: { x: '' } });
      expect(await eventually(() => seen.length === 5)).toBe(true);
      expect(seen[4]).toEqual(['users', { filter: { _id: 3 }, update: { $set: { name: 'B' } } }]);
    } finally {
      stop();
    }
  });

  test('when the stream fails, then the error is reported and it follows again from its last event, so a write made meanwhile still arrives', async () => {
    const seen: Seen = [];
    const errors: unknown[] = [];
    const stop = await follow(['likes'], seen, errors);
    try {
      // The next getMore fails with an error the driver does not resume from by itself.
      await writer.connection.db!.admin().command({
        configureFailPoint: 'failCommand',
        mode: { times: 1 },
        data: { failCommands: ['getMore'], errorCode: 2 },
      });
      await collection('likes').insertOne({ _id: 1 }); // answers the getMore already waiting
      expect(await eventually(() => errors.length === 1)).toBe(true);
      await collection('likes').insertOne({ _id: 2 }); // while no stream is open
      expect(await eventually(() => seen.length === 2)).toBe(true);
      expect(seen.map(([, event]) => event.documents?.[0]?._id)).toEqual([1, 2]);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ code: 2 });
    } finally {
      stop();
    }
  });

  test('when the database is dropped, then every followed collection hears of it and the stream follows again', async () => {
    const seen: Seen = [];
    const errors: unknown[] = [];
    const stop = await follow(['follows', 'reposts'], seen, errors);
    try {
      await writer.connection.db!.dropDatabase();
      expect(
        await eventually(
          () =>
            seen.some(([name, event]) => name === 'follows' && event.unknown) &&
            seen.some(([name, event]) => name === 'reposts' && event.unknown),
        ),
      ).toBe(true);
      seen.length = 0;
      expect(
        await eventually(async () => {
          await collection('reposts').insertOne({ _id: Math.floor(Math.random() * 1e9) });
          return seen.some(([name, event]) => name === 'reposts' && event.documents);
        }),
      ).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      stop();
    }
  });

  test("when the following connection inserts through its own models, then the stream leaves out the echo of the insert (announced already) and still brings its transactions, its other writes and another connection's", async () => {
    const schema = new Schema({ _id: Number, n: Number, m: Number }, { versionKey: false });
    announceWrites(schema, 'echoes');
    const Echo = follower.connection.model('Echo', schema, 'echoes');
    const announced: Seen = [];
    follower.connection.on('campus:write', (name: string, event: WriteEvent) =>
      announced.push([name, event]),
    );
    const seen: Seen = [];
    const stop = await follow(['echoes'], seen);
    try {
      await Echo.create({ _id: 1, n: 0 }); // an insert of its own
      // A transaction of its own: its events are handled all the same.
      const session = await follower.connection.startSession();
      session.startTransaction();
      await Echo.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session });
      await Echo.create([{ _id: 2, n: 0 }], { session });
      await session.commitTransaction();
      await session.endSession();
      // Outside a transaction: another process may make the same update at the same time.
      await Echo.updateOne({ _id: 1 }, { $set: { m: 1 } });
      await collection('echoes').insertOne({ _id: 3 }); // another connection's
      await collection('echoes').deleteOne({ _id: 2 });
      expect(await eventually(() => seen.length >= 5)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(seen).toEqual([
        ['echoes', { filter: { _id: 1 }, update: { $set: { n: 1 } } }],
        ['echoes', { documents: [{ _id: 2, n: 0 }], inserted: true }],
        ['echoes', { filter: { _id: 1 }, update: { $set: { m: 1 } } }],
        ['echoes', { documents: [{ _id: 3 }], inserted: true }],
        ['echoes', { filter: { _id: 2 }, deleted: true }],
      ]);
      // What was left out had been announced by the connection itself, after the database answered.
      expect(announced.filter(([, e]) => e.inserted).map(([, e]) => e.documents?.[0]?._id)).toEqual(
        expect.arrayContaining([1]),
      );
    } finally {
      stop();
    }
  });

  test('when it is stopped, then nothing more arrives', async () => {
    const seen: Seen = [];
    const stop = await follow(['posts'], seen);
    stop();
    await collection('posts').insertOne({ _id: 99 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen).toEqual([]);
  });
});

describe('changeToWriteEvent', () => {
  test('when the event cannot be described as one write (a drop, an invalidate), then it is unknown', () => {
    for (const operationType of ['drop', 'rename', 'dropDatabase', 'invalidate'])
      expect(changeToWriteEvent({ _id: {}, operationType })).toEqual({ unknown: true });
    expect(
      changeToWriteEvent({ _id: {}, operationType: 'replace', documentKey: { _id: 4 } }),
    ).toEqual({ filter: { _id: 4 } });
  });

  test('when a document is deleted, then the event names it by _id and says it is gone (a replace does not)', () => {
    expect(
      changeToWriteEvent({ _id: {}, operationType: 'delete', documentKey: { _id: 4 } }),
    ).toEqual({ filter: { _id: 4 }, deleted: true });
  });
});
