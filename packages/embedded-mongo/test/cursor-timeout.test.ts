/**
 * Idle cursors time out as in mongod (cursorTimeoutMillis, 10 minutes by default; shortened here):
 * a getMore after the timeout gets CursorNotFound, a cursor read in time lives on, and
 * `noCursorTimeout` keeps a cursor until it is exhausted or killed. The server reads idleness
 * from `Date`, which these tests fake and move by hand: a busy machine cannot stretch a gap.
 */
import type { Long } from 'mongodb';
import { MongoClient, MongoServerError, type Db } from 'mongodb';
import { start, type RunningServer } from '../src';
import { reapIdleCursors } from '../src/commands/cursors';
import type { Cursor } from '../src/commands/context';

const TIMEOUT_MS = 3000;
let server: RunningServer;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  server = await start({ port: 0, cursorTimeoutMs: TIMEOUT_MS });
  client = await MongoClient.connect(server.uri);
  db = client.db('cursors');
  await db.collection('c').insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: i as never })));
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

// Only Date is faked: the driver's and the server's timers and sockets run as usual.
beforeEach(() => {
  jest.useFakeTimers({
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
});
afterEach(() => jest.useRealTimers());

/** Moves the server's clock on; a cursor it reads nothing from is idle for that long. */
const passes = (ms: number) => jest.setSystemTime(Date.now() + ms);

async function open(extra: Record<string, unknown> = {}): Promise<Long> {
  const reply = await db.command({ find: 'c', batchSize: 2, ...extra });
  const id = (reply.cursor as { id: Long }).id;
  expect(Number(id)).not.toBe(0);
  return id;
}

const getMore = (id: Long) => db.command({ getMore: id, collection: 'c', batchSize: 2 });

test('a cursor left idle past the timeout is closed: getMore answers CursorNotFound (43)', async () => {
  const id = await open();
  passes(TIMEOUT_MS * 1.5);
  const error = await getMore(id).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MongoServerError);
  expect((error as MongoServerError).code).toBe(43);
  expect((error as MongoServerError).codeName).toBe('CursorNotFound');
  expect((error as MongoServerError).message).toBe(`cursor id ${Number(id)} not found`);
});

test('a cursor read more often than the timeout lives on past it', async () => {
  const started = Date.now();
  const id = await open();
  const seen: number[] = [];
  // 9 reads span more than the timeout; no gap between two comes near it.
  for (let i = 0; i < 9; i++) {
    passes(TIMEOUT_MS / 8);
    const reply = await getMore(id);
    seen.push(
      ...(reply.cursor as { nextBatch: Array<{ _id: number }> }).nextBatch.map((d) => d._id),
    );
  }
  expect(seen).toEqual(Array.from({ length: 18 }, (_, i) => i + 2));
  expect(Date.now() - started).toBeGreaterThan(TIMEOUT_MS);
});

test('noCursorTimeout keeps an idle cursor; killCursors then closes it', async () => {
  const id = await open({ noCursorTimeout: true });
  passes(TIMEOUT_MS * 1.5);
  const reply = await getMore(id);
  expect((reply.cursor as { nextBatch: unknown[] }).nextBatch).toHaveLength(2);
  const killed = await db.command({ killCursors: 'c', cursors: [id] });
  expect(killed.cursorsKilled.map(Number)).toEqual([Number(id)]);
  await expect(getMore(id)).rejects.toMatchObject({ code: 43 });
});

test('the driver sees the timeout as CursorNotFound while iterating', async () => {
  const cursor = db.collection('c').find({}, { batchSize: 2 });
  expect(await cursor.next()).toEqual({ _id: 0 });
  expect(await cursor.next()).toEqual({ _id: 1 });
  passes(TIMEOUT_MS * 1.5);
  await expect(cursor.next()).rejects.toMatchObject({ code: 43, codeName: 'CursorNotFound' });
  await cursor.close();
});

test('the cursor monitor closes exactly the cursors idle longer than the timeout', () => {
  const cursor = (lastUsed: number, noTimeout?: boolean): Cursor => ({
    ns: 'cursors.c',
    docs: [],
    pos: 0,
    lastUsed,
    ...(noTimeout ? { noTimeout } : {}),
  });
  const cursors = new Map<number, Cursor>([
    [1, cursor(0)],
    [2, cursor(400)],
    [3, cursor(0, true)],
    [4, cursor(1000)],
  ]);
  expect(reapIdleCursors(cursors, 600, 1000)).toBe(1);
  expect([...cursors.keys()]).toEqual([2, 3, 4]);
  expect(reapIdleCursors(cursors, 600, 1001)).toBe(1);
  expect([...cursors.keys()]).toEqual([3, 4]);
});
