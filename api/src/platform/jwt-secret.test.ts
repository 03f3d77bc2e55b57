import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { start } from '@campus/embedded-mongo';
import { connectDatabase, type Database } from './db';
import { SECRETS_COLLECTION, resolveJwtSecret } from './jwt-secret';

let server: Awaited<ReturnType<typeof start>> | undefined;
const opened: Database[] = [];
const uri = () => process.env.TEST_MONGODB_URI ?? server!.uri;

beforeAll(async () => {
  if (!process.env.TEST_MONGODB_URI) server = await start({ port: 0 });
});

afterAll(async () => {
  for (const database of opened) {
    if (process.env.TEST_MONGODB_URI) await database.connection.dropDatabase();
    await database.close();
  }
  await server?.stop();
});

/** The first of several connections. */
function firstOf(connections: Database[]): Database {
  const [first] = connections;
  if (!first) throw new Error('no connection');
  return first;
}

/** A process's own connection to the database `name` (several of them on one database). */
async function connect(name: string): Promise<Database> {
  const database = await connectDatabase(uri(), { dbName: name });
  opened.push(database);
  return database;
}

test('when several processes start together on an empty database, then they all end with the one secret that was stored', async () => {
  const connections = await Promise.all([1, 2, 3, 4].map(() => connect('secret_race')));
  const secrets = await Promise.all(
    connections.map((database) => resolveJwtSecret(undefined, database.connection)),
  );
  const [first = ''] = secrets;
  expect(new Set(secrets).size).toBe(1);
  expect(first.length).toBeGreaterThanOrEqual(32);
  const stored = await firstOf(connections)
    .connection.db!.collection(SECRETS_COLLECTION)
    .find()
    .toArray();
  expect(stored).toEqual([expect.objectContaining({ _id: 'jwt-secret', value: first })]);
  // A later start reads the same secret back.
  const later = await connect('secret_race');
  expect(await resolveJwtSecret(undefined, later.connection)).toBe(first);
});

test('when JWT_SECRET is set, then it is used and nothing is stored', async () => {
  const database = await connect('secret_configured');
  expect(await resolveJwtSecret('from-env', database.connection)).toBe('from-env');
  expect(await database.connection.db!.collection(SECRETS_COLLECTION).countDocuments()).toBe(0);
});

test('when an older version left a secret file, then the first start keeps it, so sessions survive the upgrade', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'campus-secret-'));
  try {
    const legacy = 'a-secret-from-the-file-that-is-long-enough-0123456789';
    await fs.writeFile(path.join(dir, 'jwt-secret'), `${legacy}\n`);
    const database = await connect('secret_legacy');
    expect(await resolveJwtSecret(undefined, database.connection, dir)).toBe(legacy);
    expect(await resolveJwtSecret(undefined, database.connection)).toBe(legacy);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});
