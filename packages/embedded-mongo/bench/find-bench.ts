/**
 * Benchmark (prints figures; not a test): insert throughput, the latency of a filtered,
 * sorted, limit-20 find over 100k documents with and without a supporting index, of a
 * transaction of 2 updates, and from an insert to its change event, all through the wire
 * protocol with the official driver (connected to the replica set rs0).
 *   npm run bench -w @campus/embedded-mongo [-- --docs 100000]
 * The figures also go into its section of the repository's BENCHMARKS.md (BENCH_WRITE=0: not).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { start } from '../src';
import { writeSection } from './report';

const { values } = parseArgs({ options: { docs: { type: 'string', default: '100000' } } });
const DOCS = Number(values.docs);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function timeQueries(run: () => Promise<unknown>, n: number) {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await run();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-bench-'));
  const server = await start({ port: 0, dbPath: dir });
  const client = await MongoClient.connect(`${server.uri}/?replicaSet=rs0`);
  const posts = client.db('bench').collection('posts');
  const rows: Array<[string, string]> = [];
  try {
    const t0 = Date.UTC(2026, 0, 1);
    const doc = (i: number) => ({
      _id: i,
      authorId: i % 5000,
      isJdTagged: i % 10 === 0,
      deleted: i % 50 === 0,
      content: `post number ${i} `.repeat(5),
      likesCount: i % 97,
      createdAt: new Date(t0 + i * 60_000),
    });

    let start = Date.now();
    for (let i = 1; i <= 2000; i++) await posts.insertOne(doc(i) as never);
    rows.push([
      'insertOne, one at a time (journaled)',
      `${Math.round(2000 / ((Date.now() - start) / 1000))} docs/s`,
    ]);

    start = Date.now();
    for (let i = 2001; i <= DOCS; i += 1000) {
      await posts.insertMany(
        Array.from({ length: Math.min(1000, DOCS - i + 1) }, (_, k) => doc(i + k)) as never[],
      );
    }
    rows.push([
      'insertMany, batches of 1,000 (journaled)',
      `${Math.round((DOCS - 2000) / ((Date.now() - start) / 1000))} docs/s`,
    ]);

    const query = () =>
      posts
        .find({ isJdTagged: true, deleted: { $ne: true } })
        .sort({ createdAt: -1 })
        .limit(20)
        .toArray();
    const unindexed = await timeQueries(query, 20);
    rows.push([
      `find jd page of 20 over ${DOCS} docs, no index`,
      `p50 ${unindexed.p50.toFixed(2)} ms, p99 ${unindexed.p99.toFixed(2)} ms`,
    ]);

    start = Date.now();
    await posts.createIndex({ isJdTagged: 1, createdAt: -1 });
    rows.push(['createIndex {isJdTagged: 1, createdAt: -1}', `${Date.now() - start} ms`]);
    const indexed = await timeQueries(query, 200);
    rows.push([
      `find jd page of 20 over ${DOCS} docs, indexed`,
      `p50 ${indexed.p50.toFixed(2)} ms, p99 ${indexed.p99.toFixed(2)} ms`,
    ]);
    rows.push(['speed-up (p50)', `${(unindexed.p50 / indexed.p50).toFixed(0)}x`]);

    // A like: the post's counter and the like document change together (journaled, one record).
    const likes = client.db('bench').collection('likes');
    const session = client.startSession();
    let n = 0;
    const txn = await timeQueries(
      () =>
        session.withTransaction(async () => {
          n++;
          await posts.updateOne(
            { _id: n % DOCS } as never,
            { $inc: { likesCount: 1 } },
            { session },
          );
          await likes.updateOne(
            { _id: n } as never,
            { $set: { postId: n % DOCS } },
            { session, upsert: true },
          );
        }),
      500,
    );
    await session.endSession();
    rows.push([
      'transaction of 2 updates (withTransaction, journaled)',
      `p50 ${txn.p50.toFixed(2)} ms, p99 ${txn.p99.toFixed(2)} ms`,
    ]);

    // From insertOne's call to the change stream delivering its event (a tailing getMore).
    const events = client.db('bench').collection('events');
    const stream = events.watch([], { maxAwaitTimeMS: 1000 });
    await stream.tryNext(); // opens the stream
    const latency = await timeQueries(async () => {
      const next = stream.next();
      await events.insertOne({ at: Date.now() });
      await next;
    }, 300);
    await stream.close();
    rows.push([
      'insert -> change event',
      `p50 ${latency.p50.toFixed(2)} ms, p99 ${latency.p99.toFixed(2)} ms`,
    ]);
  } finally {
    await client.close();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const width = Math.max(...rows.map(([k]) => k.length));
  const lines = [
    `embedded-mongo benchmark on ${os.cpus().length} cores, node ${process.version}`,
    ...rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`),
  ];
  for (const line of lines) console.log(line);
  writeSection('bench', lines);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
