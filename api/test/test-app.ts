import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcrypt';
import request from 'supertest';
import { start } from '@campus/embedded-mongo';
import { createApp, type CampusApp } from '../src/app';
import { createTokenService } from '../src/platform/auth';
import { loadConfig, MEMBER_ACTIONS, type Config } from '../src/platform/config';
import { connectDatabase, type Database } from '../src/platform/db';
import { createLogger, type Logger } from '../src/platform/logger';
import { createModels, type Models } from '../src/models';
import type { AppContext, Clock } from '../src/context';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
export const TEST_PASSWORD = 'correct horse battery';

type Overrides = Partial<Omit<Config, 'rateLimits'>> & {
  rateLimits?: Partial<Config['rateLimits']>;
};

export interface TestApp {
  config: Config;
  /** A supertest client on the app's callback (no port is opened for the app). */
  http(): ReturnType<typeof request>;
  /** A client that keeps the cookies the app sets, as one browser does (its own jar each call). */
  browser(): ReturnType<typeof request.agent>;
  /** The app's read caches (e.g. to forget what a write behind the app's back changed). */
  caches: CampusApp['caches'];
  /** The app's domain events (to wait for one, or to see what a write told). */
  events: CampusApp['events'];
  /** The app's context: what its use cases take (its transactions, ids, caches...). */
  context: AppContext;
  /** Resolves once every commit made so far, through any app, has reached this app's caches. */
  caughtUp(): Promise<void>;
  /**
   * Resolves once the mail queue has nothing due: every mail queued so far (and due by the apps'
   * clocks) has been delivered to the outbox directory, or its attempt failed.
   */
  mailSent(): Promise<void>;
  /** The database the app works on. */
  database: Database<Models>;
  /** The app's models, bound to its own database connection. */
  models: Models;
  /** A verified member created directly in this app's database, with a valid token for it. */
  createMember(fields?: MemberFields): Promise<Member>;
  /** The stored user, as a plain object (without `lastActiveAt`), to assert what did (not) change. */
  storedUser(id: number): ReturnType<typeof storedUser>;
  lastActiveAt(id: number): ReturnType<typeof lastActiveAt>;
  /**
   * Builds another app on the same database (e.g. with other limits, or a clock of the test's),
   * closed after the file.
   */
  another(
    overrides: Overrides,
    clock?: Clock,
    logger?: Logger,
  ): { http(): ReturnType<typeof request>; app: CampusApp };
  /** A client on `another(overrides, clock)`. */
  withConfig(overrides: Overrides, clock?: Clock): ReturnType<typeof request>;
  dataDir: string;
}

const NO_LIMIT = { max: 0, windowMs: 60_000 };

export function testConfig(dataDir: string, overrides: Overrides = {}): Config {
  const base = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', BCRYPT_ROUNDS: '4' });
  return {
    ...base,
    dataDir,
    publicUrl: 'http://api.test',
    webUrl: 'http://web.test',
    jwtSecret: TEST_JWT_SECRET,
    // Tests act fast as few members; the limits are tested with their own app (member-limits.test.ts).
    memberLimits: Object.fromEntries(
      MEMBER_ACTIONS.map((action) => [action, { perMinute: 0, perDay: 0 }]),
    ) as Config['memberLimits'],
    // No sign-in delays either, unless the test file sets them (sign-in-delays.test.ts).
    signInDelays: { ...base.signInDelays, maxDelayMs: 0 },
    ...overrides,
    // Every limit off unless the test file sets it (each is tested with its own app).
    rateLimits: {
      ...(Object.fromEntries(
        Object.keys(base.rateLimits).map((rule) => [rule, NO_LIMIT]),
      ) as Config['rateLimits']),
      ...overrides.rateLimits,
    },
  };
}

/**
 * The app on `database`, with test settings and uploads under `dataDir`. It follows the
 * database's writes until `app.close()`.
 */
export function buildTestApp(
  database: Database<Models>,
  dataDir: string,
  overrides: Overrides = {},
  /** The app's clock (default: the system's): a test moves it instead of waiting. */
  clock?: Clock,
  /** Where the app logs (default: nowhere); test/log-capture.ts keeps the lines to read. */
  logger: Logger = createLogger('silent'),
) {
  const cfg = testConfig(dataDir, overrides);
  const app = createApp({
    config: cfg,
    logger,
    // A test may restart with another key (a rotation): `another({ jwtSecret, jwtPreviousSecrets })`.
    jwtSecret: cfg.jwtSecret ?? TEST_JWT_SECRET,
    database,
    clock,
  });
  return { cfg, app, callback: app.callback() };
}

/**
 * What another API process on `app`'s database would be: an app on its own connection (so it
 * learns of `app`'s writes only through its change stream, as a second process does) with its read
 * caches kept for a minute. `http()` sends it requests; `close()` closes the app and its connection.
 */
export async function startOtherProcessApp(app: Pick<TestApp, 'database' | 'dataDir'>) {
  const { host, port, name } = app.database.connection;
  const database = await connectDatabase(`mongodb://${host}:${port}/?directConnection=true`, {
    dbName: name,
    models: createModels,
  });
  const other = buildTestApp(database, app.dataDir, { readCacheMs: 60_000, authorCacheMs: 60_000 });
  return {
    http: () => request(other.callback),
    /** Its database connection (to count the queries it makes). */
    connection: database.connection,
    /** Resolves once every commit made so far (through any app) has reached it. */
    caughtUp: () => other.app.caughtUp(),
    /** Its domain events (to wait for one). */
    events: other.app.events,
    async close() {
      await other.app.close();
      await database.close();
    },
  };
}

/**
 * Registers beforeAll/afterAll hooks: a fresh embedded database (or TEST_MONGODB_URI) with a unique
 * database name, a temporary DATA_DIR, and the app built on them.
 */
export function useTestApp(overrides: Overrides = {}): TestApp {
  let server: Awaited<ReturnType<typeof start>> | undefined;
  let database: Database<Models> | undefined;
  let config: Config | undefined;
  let dataDir = '';
  const apps: CampusApp[] = [];

  const build = (extra: Overrides, clock?: Clock, logger?: Logger) => {
    if (!database) throw new Error('useTestApp: used before beforeAll');
    const built = buildTestApp(database, dataDir, { ...overrides, ...extra }, clock, logger);
    apps.push(built.app);
    return built;
  };
  let main: ReturnType<typeof build> | undefined;
  const used = () => {
    if (!main) throw new Error('useTestApp: used before beforeAll');
    return main;
  };

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'campus-api-test-'));
    const external = process.env.TEST_MONGODB_URI;
    // Test commands: a test may make the database fail a command (the failCommand fail point).
    if (!external) server = await start({ port: 0, enableTestCommands: true });
    const uri = external ?? server!.uri;
    database = await connectDatabase(uri, {
      dbName: `test_${randomBytes(6).toString('hex')}`,
      models: createModels,
    });
    main = build({});
    config = main.cfg;
  });

  afterAll(async () => {
    for (const app of apps.splice(0)) await app.close();
    if (process.env.TEST_MONGODB_URI) await database?.connection.dropDatabase();
    await database?.close();
    await server?.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  return {
    get config() {
      if (!config) throw new Error('useTestApp: used before beforeAll');
      return config;
    },
    get dataDir() {
      return dataDir;
    },
    get caches() {
      return used().app.caches;
    },
    get events() {
      return used().app.events;
    },
    get context() {
      return used().app.appContext;
    },
    caughtUp: () => used().app.caughtUp(),
    async mailSent() {
      for (const app of apps) await app.appContext.mailQueue.drain();
    },
    get database() {
      if (!database) throw new Error('useTestApp: used before beforeAll');
      return database;
    },
    get models() {
      return used().app.models;
    },
    createMember: (fields) => createMember(used().app, fields),
    storedUser: (id) => storedUser(used().app, id),
    lastActiveAt: (id) => lastActiveAt(used().app, id),
    http() {
      return request(used().callback);
    },
    browser() {
      return request.agent(used().callback);
    },
    another(extra, clock, logger) {
      const built = build(extra, clock, logger);
      return { app: built.app, http: () => request(built.callback) };
    },
    withConfig(extra, clock) {
      return request(build(extra, clock).callback);
    },
  };
}

let emailSeq = 0;
export function uniqueEmail(prefix = 'member', domain = 'campus.edu'): string {
  emailSeq += 1;
  return `${prefix}.${emailSeq}.${randomBytes(3).toString('hex')}@${domain}`;
}

const passwordHash = bcrypt.hashSync(TEST_PASSWORD, 4);

type MemberFields = {
  name?: string;
  email?: string;
  bio?: string;
  isVerified?: boolean;
  id?: number;
};
export type Member = { id: number; email: string; name: string; token: string; auth: string };
/** What the helpers below write through: an app's models and ids. */
type AppData = Pick<CampusApp, 'models' | 'appContext'>;

/** A verified member created directly in `app`'s database, with a valid token for it. */
export async function createMember(app: AppData, fields: MemberFields = {}): Promise<Member> {
  const id = fields.id ?? (await app.appContext.ids.nextId('users'));
  const user = await app.models.User.create({
    _id: id,
    name: fields.name ?? `Member ${id}`,
    email: fields.email ?? uniqueEmail(),
    password: passwordHash,
    bio: fields.bio ?? '',
    isVerified: fields.isVerified ?? true,
  });
  const tokens = createTokenService({
    secret: TEST_JWT_SECRET,
    issuer: 'campus-api',
    expiresIn: '1h',
  });
  const token = tokens.sign(id);
  return { id, email: user.email, name: user.name, token, auth: `Bearer ${token}` };
}

/**
 * The stored user, as a plain object, to assert what did (not) change. `lastActiveAt` is left out:
 * any authenticated request may record activity.
 */
export async function storedUser(app: AppData, id: number) {
  return app.models.User.findById(id, { lastActiveAt: 0 }).lean();
}

export async function lastActiveAt(app: AppData, id: number) {
  return (await app.models.User.findById(id, { lastActiveAt: 1 }).lean())?.lastActiveAt;
}
