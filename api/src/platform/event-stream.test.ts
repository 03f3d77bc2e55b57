/**
 * The outbox's change stream (event-stream.ts) between apps on one database, as between API
 * processes: what one app commits reaches the others once, in commit order; a process started
 * again under its name resumes where it stopped; a stream that fails or cannot resume tells the
 * subscribers to start afresh.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { start } from '@campus/embedded-mongo';
import { buildTestApp } from '../../test/test-app';
import type { CampusApp } from '../app';
import type { DomainEvent } from '../domain-events';
import { createModels, type Models } from '../models';
import { connectDatabase, type Database } from './db';

let server: Awaited<ReturnType<typeof start>>;
let dataDir = '';
const opened: Array<{ app: CampusApp; database: Database<Models> }> = [];
/** The oplog of this test's server keeps few changes: an old resume point is soon lost. */
const OPLOG_ENTRIES = 30;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'campus-event-stream-'));
  server = await start({ port: 0, enableTestCommands: true, oplogEntries: OPLOG_ENTRIES });
});

afterAll(async () => {
  for (const { app, database } of opened.splice(0)) {
    await app.close();
    await database.close();
  }
  await server.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** An app on its own connection (as another process), under `instanceName`. */
async function process_(instanceName: string) {
  const database = await connectDatabase(server.uri, {
    dbName: 'campus_events',
    models: createModels,
  });
  const { app } = buildTestApp(database, dataDir, { instanceName });
  opened.push({ app, database });
  const heard: Array<{ event: DomainEvent; local: boolean }> = [];
  app.events.on(['profile.updated', 'session.revoked'], (event, { local }) =>
    heard.push({ event, local }),
  );
  let resets = 0;
  const resetWaiters: Array<() => void> = [];
  app.events.onReset(() => {
    resets += 1;
    for (const resolve of resetWaiters.splice(0)) resolve();
  });
  await app.ready();
  return {
    app,
    heard,
    get resets() {
      return resets;
    },
    /** Resolves at the next reset. */
    nextReset: () => new Promise<void>((resolve) => resetWaiters.push(resolve)),
    /** Commits one transaction telling `events`. */
    tell: (...events: DomainEvent[]) =>
      app.appContext.transaction(async () => app.appContext.publish(...events)),
    async close() {
      await app.close();
      await database.close();
      opened.splice(
        opened.findIndex((o) => o.app === app),
        1,
      );
    },
  };
}

const updated = (userId: number): DomainEvent => ({ type: 'profile.updated', userId });

test('when an app commits events, then every other app hears them once, in commit order, and the app itself once, after its commit', async () => {
  const a = await process_('a');
  const b = await process_('b');
  await a.tell(updated(1), updated(2));
  await a.tell(updated(3));
  await b.app.caughtUp();
  await a.app.caughtUp();
  expect(b.heard).toEqual([1, 2, 3].map((id) => ({ event: updated(id), local: false })));
  expect(a.heard).toEqual([1, 2, 3].map((id) => ({ event: updated(id), local: true })));
  await Promise.all([a.close(), b.close()]);
});

/** A writer, and a reader that heard `updated(1)` and stopped (its position saved as it closed). */
async function stoppedReader(name: string) {
  const writer = await process_(`writer-${name}`);
  const reader = await process_(`reader-${name}`);
  await writer.tell(updated(1));
  await reader.app.caughtUp();
  await reader.close();
  return { writer, startAgain: () => process_(`reader-${name}`) };
}

test('when a process starts again under the same name, then it hears what was committed while it was down', async () => {
  const { writer, startAgain } = await stoppedReader('restarted');
  await writer.tell(updated(11), updated(12));
  const reader = await startAgain();
  await reader.app.caughtUp();
  expect(reader.heard.map((h) => h.event)).toEqual([updated(11), updated(12)]);
  expect(reader.resets).toBe(0);
  await Promise.all([writer.close(), reader.close()]);
});

test('when its saved position is no longer in the database’s history, then its subscribers start afresh and it follows from now', async () => {
  const { writer, startAgain } = await stoppedReader('lost');
  // More commits than the oplog keeps: where the reader stopped is gone.
  for (let i = 0; i < OPLOG_ENTRIES + 5; i++) await writer.tell(updated(100 + i));
  const reader = await startAgain();
  expect(reader.resets).toBe(1);
  expect(reader.heard).toEqual([]);
  await writer.tell(updated(999));
  await reader.app.caughtUp();
  expect(reader.heard.map((h) => h.event)).toEqual([updated(999)]);
  await Promise.all([writer.close(), reader.close()]);
});

test('when the stream fails, then the subscribers start afresh and it follows again from where it was', async () => {
  const writer = await process_('writer-3');
  const reader = await process_('reader-3');
  const reset = reader.nextReset();
  // Every getMore fails with an error the driver does not resume from by itself, until the
  // reader has failed (the fail point cannot tell the two apps' connections apart under Jest).
  const admin = writer.app.models.User.db.db!.admin();
  await admin.command({
    configureFailPoint: 'failCommand',
    mode: 'alwaysOn',
    data: { failCommands: ['getMore'], errorCode: 2 },
  });
  await writer.tell(updated(20));
  await reset;
  await admin.command({ configureFailPoint: 'failCommand', mode: 'off' });
  await writer.tell(updated(21));
  await reader.app.caughtUp();
  // Nothing committed around the failure is lost: the stream resumed after its last event.
  expect(reader.heard.map((h) => h.event)).toEqual([updated(20), updated(21)]);
  await Promise.all([writer.close(), reader.close()]);
});
