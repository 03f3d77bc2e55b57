/**
 * `npm run bench:data`: generates the benchmark dataset and bulk-loads it into a fresh embedded
 * database under .data/bench/db (or into MONGODB_URI, dropping that database first), then recounts
 * every denormalized count to prove the load is consistent. Prints timings, the load rate, the
 * data and index sizes and the database process's resident memory once restarted on the dataset.
 *
 * `--scale N` (or BENCH_SCALE=N): N times the 100k-post dataset, into `.data/bench/db-<N>x`
 * (issue 42: `--scale 10` is 50,000 members and 1M posts; `--scale 0.1` a tenth, for quick runs).
 * The embedded server keeps the documents inserted since it started as objects, the snapshot's as
 * bytes: whenever its resident memory has grown by BENCH_DB_RESTART_MB (default 3072) since it
 * started, the load compacts and restarts it between batches (counted in the load's time), so a
 * 10x load fits the machine. (Growth, not a total: at 10x a restarted server's snapshot alone
 * passes 3 GiB, and a total would restart it after every batch.)
 */
import fs from 'node:fs';
import path from 'node:path';
import bcrypt from 'bcrypt';
import type { Model } from 'mongoose';
import { migrateDatabase } from '../../api/src/migrations/run';
import { createLogger } from '../../api/src/platform/logger';
import { findCountMismatches } from '../../api/src/modules/posts/recount';
import type { Models } from '../../api/src/models';
import type { Database } from '../../api/src/platform/db';
import {
  BENCH_SCALE,
  DATASET_DIR,
  openBenchDatabase,
  saveLoadFigures,
  type BenchDatabase,
} from './database';
import { residentBytes } from './cpu';
import { FULL_SIZE, generateDataset, type DatasetSize } from './dataset';
import { fmt, table, writeSection } from './report';

const BATCH = 10_000;
/** insertMany batches in flight (BENCH_LOAD_IN_FLIGHT). */
const IN_FLIGHT = Number(process.env.BENCH_LOAD_IN_FLIGHT ?? 2);
/** Documents inserted between two looks at the database's resident memory. */
const CHUNK = 500_000;
const RESTART_BYTES = Number(process.env.BENCH_DB_RESTART_MB ?? 3072) * 2 ** 20;
const MiB = 2 ** 20;
export const BENCH_PASSWORD = 'campus-demo';

function scaled(scale: number): DatasetSize {
  const s = (n: number) => Math.max(1, Math.round(n * scale));
  return {
    ...FULL_SIZE,
    users: s(FULL_SIZE.users),
    posts: s(FULL_SIZE.posts),
    likes: s(FULL_SIZE.likes),
    comments: s(FULL_SIZE.comments),
  };
}

async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await fn();
  return { result, ms: performance.now() - started };
}

/** insertMany through the model's collection (no mongoose documents), a few batches in flight. */
async function bulkInsert(model: Model<never>, docs: object[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < docs.length) {
      const batch = docs.slice(next, (next += BATCH));
      await model.collection.insertMany(batch as never[], { ordered: false });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

/**
 * Loads one collection in chunks; between chunks, restarts the database when its resident memory
 * has grown by RESTART_BYTES since it started (`started`, kept across collections; see the
 * header). Returns the connection to go on with.
 */
async function loadCollection(
  db: BenchDatabase,
  database: Database<Models>,
  name: keyof Models,
  docs: object[],
  started: { residentBytes: number },
): Promise<{ database: Database<Models>; restarts: number }> {
  let restarts = 0;
  for (let from = 0; from < docs.length; from += CHUNK) {
    await bulkInsert(database.models[name] as never, docs.slice(from, from + CHUNK));
    if (db.embedded && residentBytes(db.pid) - started.residentBytes > RESTART_BYTES) {
      database = await db.restart();
      started.residentBytes = residentBytes(db.pid);
      restarts += 1;
    }
  }
  return { database, restarts };
}

async function main() {
  const scale = BENCH_SCALE;
  const size = scaled(scale);
  const adminUserId = Number(process.env.ADMIN_USER_ID ?? 107);
  if (!(adminUserId >= 1 && adminUserId <= size.users))
    throw new Error(
      `ADMIN_USER_ID ${adminUserId} is not one of the ${size.users} members at scale ${scale}: set ADMIN_USER_ID to one of them`,
    );
  const now = new Date();

  const generated = await timed(async () =>
    generateDataset({
      size,
      adminUserId,
      passwordHash: await bcrypt.hash(BENCH_PASSWORD, 10),
      now,
    }),
  );
  const data = generated.result;
  console.log(`generated in ${fmt(generated.ms / 1000, 1)} s`);

  const db = await openBenchDatabase({ fresh: true });
  try {
    const indexes = await timed(() => db.connect());
    console.log(
      `database ${db.embedded ? 'embedded' : 'MONGODB_URI'}; indexes built in ${fmt(indexes.ms)} ms`,
    );
    let database = indexes.result;
    // As a new deployment: the migrations recorded as applied on the empty database (the data
    // below is generated in this version's shape), so a start on the dataset has none to run.
    await migrateDatabase(database, { logger: createLogger('silent') });
    const loads: Array<[string, keyof Models, object[]]> = [
      ['users', 'User', data.users],
      ['follows', 'Follow', data.follows],
      ['posts', 'Post', data.posts],
      ['reposts', 'Repost', data.reposts],
      ['comments', 'Comment', data.comments],
      ['likes', 'Like', data.likes],
      ['notifications', 'Notification', data.notifications],
    ];
    const rows: Array<Array<string | number>> = [];
    let totalDocs = 0;
    let totalMs = 0;
    let totalRestarts = 0;
    const started = { residentBytes: db.embedded ? residentBytes(db.pid) : 0 };
    for (const [name, model, docs] of loads) {
      const { ms, result } = await timed(() => loadCollection(db, database, model, docs, started));
      database = result.database;
      totalDocs += docs.length;
      totalMs += ms;
      totalRestarts += result.restarts;
      rows.push([
        name,
        fmt(docs.length),
        fmt(ms / 1000, 1),
        fmt(docs.length / (ms / 1000)),
        result.restarts,
      ]);
      console.log(
        `${name}: ${fmt(docs.length)} in ${fmt(ms / 1000, 1)} s (${fmt(docs.length / (ms / 1000))}/s)` +
          (result.restarts ? `, ${result.restarts} restarts of the database` : ''),
      );
    }
    rows.push([
      '**total**',
      fmt(totalDocs),
      fmt(totalMs / 1000, 1),
      `**${fmt(totalDocs / (totalMs / 1000))}**`,
      totalRestarts,
    ]);
    console.log(`load: ${fmt(totalDocs)} documents at ${fmt(totalDocs / (totalMs / 1000))}/s`);
    const { Counter } = database.models;
    const lastIds: Record<string, number> = {
      users: Math.max(size.users, adminUserId),
      follows: data.follows.length,
      posts: data.posts.length,
      reposts: data.reposts.length,
      comments: data.comments.length,
      likes: data.likes.length,
      notifications: data.notifications.length,
    };
    await Counter.collection.insertMany(
      Object.entries(lastIds).map(([name, seq]) => ({ _id: name as never, seq })),
    );

    const recount = await timed(() => findCountMismatches({ models: database.models }));
    console.log(`recount: ${recount.result.length} mismatches in ${fmt(recount.ms / 1000, 1)} s`);
    // Sizes, then the database as a start finds it (compacted, restarted, warm): its resident
    // memory against its data and indexes (issue 42: at most 1.5x at 10x).
    const stats = (await database.connection.db!.stats()) as {
      dataSize: number;
      indexSize: number;
    };
    if (db.embedded) database = await db.restart();
    const resident = residentBytes(db.pid);
    const journal = path.join(DATASET_DIR, 'journal.bson');
    const sizes = {
      // The journal image a start reads and keeps in memory (a snapshot after the restart).
      journalBytes: db.embedded && fs.existsSync(journal) ? fs.statSync(journal).size : 0,
      dataBytes: stats.dataSize,
      indexBytes: stats.indexSize,
      residentBytes: resident,
      residentRatio: resident / (stats.dataSize + stats.indexSize),
    };
    console.log(
      `data ${fmt(sizes.dataBytes / MiB)} MiB, indexes ${fmt(sizes.indexBytes / MiB)} MiB, journal ${fmt(sizes.journalBytes / MiB)} MiB; ` +
        (db.embedded
          ? `the database restarted on it: ${fmt(resident / MiB)} MiB resident (${fmt(sizes.residentRatio, 2)}x data + indexes)`
          : ''),
    );
    saveLoadFigures(db.embedded ? DATASET_DIR : undefined, {
      scale,
      generatedAt: now.toISOString(),
      documents: totalDocs,
      seconds: totalMs / 1000,
      documentsPerSecond: totalDocs / (totalMs / 1000),
      restarts: totalRestarts,
      inFlight: IN_FLIGHT,
      mismatches: recount.result.length,
      ...sizes,
    });
    const viral = [...data.posts].sort((a, b) => b.likesCount - a.likesCount)[0]!;
    const today = data.posts.filter(
      (p) => p.createdAt.toDateString() === now.toDateString(),
    ).length;

    writeSection(
      'bench:data',
      [
        `Generated ${now.toISOString()}${scale !== 1 ? ` at scale ${scale}` : ''} into ${db.embedded ? 'the embedded database (`.data/bench/db`, its CLI in its own process)' : '`MONGODB_URI`'}.`,
        '',
        `- ${fmt(data.users.length)} users (the admin is user ${adminUserId}; password \`${BENCH_PASSWORD}\` for all, e-mails \`user<id>@campus.edu\`)`,
        `- ${fmt(data.follows.length)} follows: out-degree 8/√(1−r) (median ~11, capped at 400), targets by Zipf popularity (s = 1)`,
        `- ${fmt(data.posts.length)} posts over ${size.days} days (${fmt(today)} today; about 15 % JD-tagged), of which ${fmt(data.reposts.length)} reposts (40 % quoted); authors by Zipf activity (s = 0.8)`,
        `- ${fmt(data.likes.length)} likes (${fmt(data.likes.filter((l) => l.postId !== null).length)} of posts, the rest of comments) and ${fmt(data.comments.length)} comments (a third replies), concentrated on viral posts (the most liked has ${fmt(viral.likesCount)} likes)`,
        `- ${fmt(data.notifications.length)} notifications caused by the above (like notifications for the last 14 days only)`,
        '',
        `Bulk load (\`insertMany\` of 10,000 documents through each model's collection, ${IN_FLIGHT} batches in flight (\`BENCH_LOAD_IN_FLIGHT\`), every index of the API in place):`,
        '',
        table(['collection', 'documents', 'seconds', 'documents/s', 'restarts'], rows),
        '',
        `Generation in memory: ${fmt(generated.ms / 1000, 1)} s. Building the indexes on the empty database: ${fmt(indexes.ms)} ms. ` +
          `"restarts": the database compacted and restarted during the load when its resident memory passed ${fmt(RESTART_BYTES / MiB)} MiB (\`BENCH_DB_RESTART_MB\`), counted in the seconds.`,
        `Recount of every denormalized count (\`findCountMismatches\`): **${recount.result.length} mismatches**, ${fmt(recount.ms / 1000, 1)} s.`,
        `Data ${fmt(sizes.dataBytes / MiB)} MiB, indexes ${fmt(sizes.indexBytes / MiB)} MiB (\`dbStats\`)` +
          (db.embedded
            ? `; the database restarted on the dataset and warm: ${fmt(resident / MiB)} MiB resident, ${fmt(sizes.residentRatio, 2)}× data + indexes.`
            : '.'),
      ].join('\n'),
      {
        skip:
          scale !== 1 ? `scale ${scale}: \`npm run bench:scale\` reports other scales` : undefined,
      },
    );
    if (recount.result.length > 0) process.exitCode = 1;
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
