import bcrypt from 'bcrypt';
import { trusted } from 'mongoose';
import type { Logger } from '../platform/logger';
import { isDuplicateKey } from '../platform/mongo-errors';
import { MEDIA_BUCKET } from '../platform/media-store';
import { UPLOADS_BUCKET, type UploadStorage } from '../platform/storage';
import { storeAvatar } from '../modules/uploads/service';
import type { AppContext } from '../context';
import { setSetting } from '../modules/settings/settings';
import { initialsAvatar } from './avatars';
import { postsForDemoImages, seedDemoImages } from './images';
import { seedDemoContent } from './content';
import { DEMO_ADMIN, DEMO_MEMBERS, DEMO_PASSWORD, type DemoUser } from './demo-users';

/** The app the demo data is written through (its context: models, ids, transactions). */
export type SeedTarget = AppContext;

export interface SeedOptions {
  adminUserId: number;
  storage: UploadStorage;
  logger: Logger;
  bcryptRounds: number;
}

export async function isDatabaseEmpty({ models: { User } }: SeedTarget): Promise<boolean> {
  return (await User.estimatedDocumentCount()) === 0;
}

/** Where the seeding lock lives: one document while a process seeds (or checks that it need not). */
export const SEED_LOCK_COLLECTION = 'seed_locks';
const SEED_LOCK_ID = 'demo-data';
/** A lock older than this belongs to a process that died while seeding: the next one takes it. */
const SEED_LOCK_MS = 10 * 60_000;
const SEED_LOCK_POLL_MS = 250;

interface SeedLock {
  _id: string;
  until: Date;
}

/**
 * Seeds the demo data when the database is empty, exactly once however many API processes start
 * together on it: each takes the lock (an insert under one fixed `_id`; the others lose with
 * E11000 and wait for it to go), and only under the lock looks whether the database is empty, so
 * a process never sees "empty" while another is half way through seeding. Answers whether this
 * call seeded. A lock left by a process that died is taken over after SEED_LOCK_MS.
 */
export async function seedDemoDataOnce(
  target: SeedTarget,
  options: SeedOptions,
  lockMs = SEED_LOCK_MS,
): Promise<boolean> {
  const db = target.models.User.db.db;
  if (!db) throw new Error('seedDemoDataOnce: the database connection is not open');
  const locks = db.collection<SeedLock>(SEED_LOCK_COLLECTION);
  for (;;) {
    const until = new Date(Date.now() + lockMs);
    try {
      await locks.insertOne({ _id: SEED_LOCK_ID, until });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const held = await locks.findOne({ _id: SEED_LOCK_ID });
      if (held && held.until.getTime() < Date.now()) {
        options.logger.warn('a seeding lock outlived its process: taking it over');
        await locks.deleteOne({ _id: SEED_LOCK_ID, until: held.until });
      } else {
        await new Promise((resolve) => setTimeout(resolve, SEED_LOCK_POLL_MS));
      }
      continue;
    }
    try {
      if (!(await isDatabaseEmpty(target))) return false;
      options.logger.info('empty database: seeding demo data');
      await seedDemoData(target, options);
      return true;
    } finally {
      await locks.deleteOne({ _id: SEED_LOCK_ID, until });
    }
  }
}

/** Drops everything the seed writes (used by `npm run seed -- --reset`). */
export async function resetDemoCollections({ models }: SeedTarget): Promise<void> {
  const { User, Follow, Notification, Feedback, AccountApplication, AppSetting, Counter } = models;
  const { Post, Comment, Like, Repost } = models;
  await Promise.all([
    User.deleteMany({}),
    Follow.deleteMany({}),
    Notification.deleteMany({}),
    Feedback.deleteMany({}),
    AccountApplication.deleteMany({}),
    AppSetting.deleteMany({}),
    Counter.deleteMany({}),
    Post.deleteMany({}),
    Comment.deleteMany({}),
    Like.deleteMany({}),
    Repost.deleteMany({}),
  ]);
  // The avatars of the accounts just deleted (uploads are GridFS files: platform/storage.ts).
  const db = User.db.db;
  await Promise.all([
    ...['files', 'chunks'].map((part) =>
      db?.collection(`${UPLOADS_BUCKET}.${part}`).deleteMany({}),
    ),
    // And the demo posts' pictures (platform/media-store.ts, modules/media).
    ...['files', 'chunks'].map((part) => db?.collection(`${MEDIA_BUCKET}.${part}`).deleteMany({})),
    models.Media.deleteMany({}),
  ]);
}

async function createDemoUser(
  { models: { User } }: SeedTarget,
  id: number,
  demo: DemoUser,
  passwordHash: string,
  options: SeedOptions,
) {
  const avatar = await storeAvatar(await initialsAvatar(demo.name, demo.colour), options.storage, {
    maxPixels: 1_000_000,
    size: 256,
  });
  await User.create({
    _id: id,
    name: demo.name,
    email: demo.email,
    password: passwordHash,
    bio: demo.bio,
    avatarUrl: avatar.path,
    isVerified: true,
    // Demo logins go straight to the feed: the first run (issue 41) is for new members.
    firstSignedInAt: new Date(),
  });
}

/**
 * Demo data: the members get ids 1..N, the id counter then jumps to ADMIN_USER_ID - 1 so the admin
 * is exactly user ADMIN_USER_ID, and later registrations continue after it. Follows form a
 * deterministic web in which every member follows 2 to 7 others and the admin.
 */
export async function seedDemoData(target: SeedTarget, options: SeedOptions): Promise<void> {
  const nextId = (name: string) => target.ids.nextId(name);
  const reserveIdsUpTo = (name: string, value: number) => target.ids.reserveIdsUpTo(name, value);
  const { Follow } = target.models;
  if (DEMO_MEMBERS.length >= options.adminUserId) {
    throw new Error('ADMIN_USER_ID must be greater than the number of demo members');
  }
  const passwordHash = await bcrypt.hash(DEMO_PASSWORD, options.bcryptRounds);
  const memberIds: number[] = [];
  for (const member of DEMO_MEMBERS) {
    const id = await nextId('users');
    await createDemoUser(target, id, member, passwordHash, options);
    memberIds.push(id);
  }
  await reserveIdsUpTo('users', options.adminUserId - 1);
  const adminId = await nextId('users');
  if (adminId !== options.adminUserId) {
    throw new Error(
      `The admin would get id ${adminId}, not ${options.adminUserId}: reset the database first`,
    );
  }
  await createDemoUser(target, adminId, DEMO_ADMIN, passwordHash, options);

  const pairs: Array<[number, number]> = [];
  memberIds.forEach((follower, index) => {
    const count = 2 + (index % 6);
    for (let step = 1; step <= count; step += 1) {
      pairs.push([follower, memberIds[(index + step * 3) % memberIds.length]!]);
    }
    pairs.push([follower, adminId]);
  });
  for (const memberId of memberIds.slice(0, 5)) pairs.push([adminId, memberId]);
  const unique = new Map(pairs.filter(([a, b]) => a !== b).map(([a, b]) => [`${a}:${b}`, [a, b]]));
  for (const [followerId, followingId] of unique.values()) {
    await Follow.create({ _id: await nextId('follows'), followerId, followingId });
  }
  await setSetting(target, 'logo_url', 'local');
  const content = await seedDemoContent(target, { memberIds, adminId });
  // Seed time matters (every fresh start): what the pictures cost is logged.
  const drawingStarted = Date.now();
  const drawingCpu = process.cpuUsage();
  const images = await seedDemoImages(target, await postsForDemoImages(target));
  const imagesCpu = process.cpuUsage(drawingCpu);
  options.logger.info(
    {
      members: memberIds.length,
      adminId,
      follows: unique.size,
      ...content,
      images,
      imagesMs: Date.now() - drawingStarted,
      imagesCpuMs: Math.round((imagesCpu.user + imagesCpu.system) / 1000),
    },
    'demo data seeded',
  );
}

/**
 * A demo account present in the database (its password is in the README), or null: production
 * refuses to start while there is one (platform/production.ts).
 */
export async function findDemoAccount({
  models: { User },
}: {
  models: Pick<SeedTarget['models'], 'User'>;
}): Promise<string | null> {
  const emails = [DEMO_ADMIN, ...DEMO_MEMBERS].map((u) => u.email);
  const found = await User.findOne({ email: trusted({ $in: emails }) }, { email: 1 })
    .sort({ _id: 1 })
    .lean();
  return found?.email ?? null;
}

/** The demo accounts present in the database, for the start-up banner. */
export async function demoLogins(
  { models: { User } }: SeedTarget,
  adminUserId: number,
): Promise<string[]> {
  const emails = [DEMO_ADMIN, ...DEMO_MEMBERS].map((u) => u.email);
  const present = await User.find({ email: trusted({ $in: emails }) }, { email: 1 }).lean();
  const found = new Set(present.map((u) => u.email));
  return [DEMO_ADMIN, ...DEMO_MEMBERS]
    .filter((u) => found.has(u.email))
    .map((u) =>
      u.email === DEMO_ADMIN.email ? `${u.email} (admin, user ${adminUserId})` : u.email,
    );
}

export function printDemoLogins(logins: string[]): void {
  if (logins.length === 0) return;
  const lines = [
    '',
    `Demo accounts (password for all: ${DEMO_PASSWORD})`,
    ...logins.map((login) => `  ${login}`),
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
