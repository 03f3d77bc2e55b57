/**
 * `npm run bench:data`: generates the benchmark dataset and bulk-loads it into a fresh embedded
 * database under .data/bench/db (or into MONGODB_URI, dropping that database first), then recounts
 * every denormalized count to prove the load is consistent. Prints timings.
 *
 * BENCH_SCALE=0.1 loads a tenth of the dataset (quick runs while developing).
 */
import bcrypt from 'bcrypt';
import type { Model } from 'mongoose';
import { findCountMismatches } from '../../api/src/modules/posts/recount';
import { openBenchDatabase } from './database';
import { FULL_SIZE, generateDataset, type DatasetSize } from './dataset';
import { fmt, table, writeSection } from './report';

const BATCH = 10_000;
const IN_FLIGHT = 2;
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

async function main() {
  const scale = Number(process.env.BENCH_SCALE ?? 1);
  const size = scaled(scale);
  const adminUserId = Number(process.env.ADMIN_USER_ID ?? 107);
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
    const { models } = indexes.result;
    const { User, Follow, Post, Repost, Comment, Like, Notification, Counter } = models;
    const loads: Array<[string, Model<never>, object[]]> = [
      ['users', User as never, data.users],
      ['follows', Follow as never, data.follows],
      ['posts', Post as never, data.posts],
      ['reposts', Repost as never, data.reposts],
      ['comments', Comment as never, data.comments],
      ['likes', Like as never, data.likes],
      ['notifications', Notification as never, data.notifications],
    ];
    const rows: Array<Array<string | number>> = [];
    let totalDocs = 0;
    let totalMs = 0;
    for (const [name, model, docs] of loads) {
      const { ms } = await timed(() => bulkInsert(model, docs));
      totalDocs += docs.length;
      totalMs += ms;
      rows.push([name, fmt(docs.length), fmt(ms / 1000, 1), fmt(docs.length / (ms / 1000))]);
      console.log(`${name}: ${fmt(docs.length)} in ${fmt(ms / 1000, 1)} s`);
    }
    rows.push([
      '**total**',
      fmt(totalDocs),
      fmt(totalMs / 1000, 1),
      fmt(totalDocs / (totalMs / 1000)),
    ]);
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

    const recount = await timed(() => findCountMismatches({ models }));
    console.log(`recount: ${recount.result.length} mismatches in ${fmt(recount.ms / 1000, 1)} s`);
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
        "Bulk load (`insertMany` of 10,000 documents through each model's collection, 2 batches in flight, every index of the API in place):",
        '',
        table(['collection', 'documents', 'seconds', 'documents/s'], rows),
        '',
        `Generation in memory: ${fmt(generated.ms / 1000, 1)} s. Building the indexes on the empty database: ${fmt(indexes.ms)} ms.`,
        `Recount of every denormalized count (\`findCountMismatches\`): **${recount.result.length} mismatches**, ${fmt(recount.ms / 1000, 1)} s.`,
      ].join('\n'),
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
