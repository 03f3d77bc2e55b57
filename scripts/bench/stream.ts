/**
 * `npm run bench:stream`: the live stream (`GET /api/stream`) against the API running as it is
 * deployed (its own process, the embedded database in another), on a fresh small database.
 *
 * 1. Latency: the time from sending a like to the liked member's stream delivering the
 *    `notification` event, one like at a time (p50 / p99 over BENCH_STREAM_LIKES likes, default
 *    200): with one API process (the like and the stream on the same one), and with two (the like
 *    handled by one, the stream open on the other, so the event travels through the change
 *    stream between processes).
 * 2. Memory: the API process's resident memory with BENCH_STREAM_OPEN (default 1,000) streams
 *    open (one per member), against the same process before they opened, per stream.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openStream, type OpenedStream } from '../../api/test/stream-client';
import { BENCH_DIR, openBenchDatabase } from './database';
import { signToken } from './load';
import { startApi, type Child } from './processes';
import { fmt, table, writeSection } from './report';

const LIKES = Number(process.env.BENCH_STREAM_LIKES ?? 200);
const OPEN = Number(process.env.BENCH_STREAM_OPEN ?? 1_000);
const POSTS = 10;
const LIKERS = Math.ceil(LIKES / POSTS);

type Api = Child & { url: string };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Resident memory of a process, from /proc (Linux). */
function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  if (!kb) throw new Error('no VmRSS');
  return Number(kb) * 1024;
}

async function settle(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

async function post(url: string, userId: number, content: string): Promise<number> {
  const res = await fetch(`${url}/api/posts`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${signToken(userId)}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ content }),
  });
  if (res.status !== 201) throw new Error(`post: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: number }).id;
}

/**
 * Likes `posts` (by `authorId`) with `likerIds`, one like at a time through `likeUrl`, while the
 * author's stream is open on `streamUrl`; the milliseconds from each request to its event.
 */
async function likeLatencies(
  streamUrl: string,
  likeUrl: string,
  authorId: number,
  posts: number[],
  likerIds: number[],
): Promise<{ delivered: number[]; answered: number[] }> {
  const stream = await openStream(streamUrl, `Bearer ${signToken(authorId)}`);
  if (stream.status !== 200) throw new Error(`stream: ${stream.status}`);
  await stream.next((e) => e.event === 'unread');
  const latencies: number[] = [];
  const answered: number[] = [];
  try {
    for (const postId of posts) {
      for (const likerId of likerIds) {
        if (latencies.length >= LIKES) break;
        const from = stream.events.length;
        const started = performance.now();
        const res = await fetch(`${likeUrl}/api/posts/${postId}/like`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${signToken(likerId)}` },
        });
        if (res.status !== 200) throw new Error(`like: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
        answered.push(performance.now() - started);
        await stream.next(
          (e) =>
            e.event === 'notification' &&
            (e.data as { post?: { id: number } | null }).post?.id === postId &&
            (e.data as { actor?: { id: number } | null }).actor?.id === likerId,
          from,
        );
        latencies.push(performance.now() - started);
      }
    }
  } finally {
    stream.close();
  }
  const sorted = (values: number[]) => values.sort((x, y) => x - y);
  return { delivered: sorted(latencies), answered: sorted(answered) };
}

async function main(): Promise<void> {
  const dir = path.join(BENCH_DIR, 'stream-db');
  const bench = await openBenchDatabase({ dir, fresh: true });
  const database = await bench.connect();
  const { User } = database.models;
  // Members straight into the database (the benchmark signs their tokens): author, likers and
  // the members whose streams are held open.
  const members = 1 + LIKERS * 2 + OPEN;
  await User.insertMany(
    Array.from({ length: members }, (_, i) => ({
      _id: i + 1,
      name: `Stream Member ${i + 1}`,
      email: `stream.member.${i + 1}@campus.edu`,
      password: 'not-used',
      isVerified: true,
    })),
  );
  await database.models.Counter.updateOne(
    { _id: 'users' },
    { $set: { seq: members } },
    { upsert: true },
  );
  const author = 1;
  const likersOne = Array.from({ length: LIKERS }, (_, i) => 2 + i);
  const likersTwo = Array.from({ length: LIKERS }, (_, i) => 2 + LIKERS + i);
  const holders = Array.from({ length: OPEN }, (_, i) => 2 + 2 * LIKERS + i);

  const apiDir = (name: string) => path.join(BENCH_DIR, `stream-api-${name}`);
  const one = await startApi({ mongodbUri: bench.uri, dataDir: apiDir('a') });
  const two = await startApi({ mongodbUri: bench.uri, dataDir: apiDir('b') });
  const rows: Array<Array<string | number>> = [];
  const opened: OpenedStream[] = [];
  let memory: { before: number; after: number } | undefined;
  try {
    const postsOne: number[] = [];
    const postsTwo: number[] = [];
    for (let i = 0; i < POSTS; i++) postsOne.push(await post(one.url, author, `one ${i}`));
    for (let i = 0; i < POSTS; i++) postsTwo.push(await post(one.url, author, `two ${i}`));
    // Warm both processes' paths (first requests compile and fill caches).
    await likeLatencies(one.url, two.url, author, [postsOne[0]!], [holders[0]!]);

    for (const [label, streamApi, likeApi, postIds, likers] of [
      ['1 API process (like and stream on the same)', one, one, postsOne, likersOne],
      ['2 API processes (like on one, stream on the other)', one, two, postsTwo, likersTwo],
    ] as Array<[string, Api, Api, number[], number[]]>) {
      const { delivered, answered } = await likeLatencies(
        streamApi.url,
        likeApi.url,
        author,
        postIds,
        likers,
      );
      rows.push([
        label,
        delivered.length,
        fmt(percentile(delivered, 50), 1),
        fmt(percentile(delivered, 99), 1),
        fmt(delivered.at(-1)!, 1),
        fmt(percentile(answered, 50), 1),
      ]);
      console.log(rows.at(-1)!.join('  '));
    }

    // Memory: streams held open on process `two`, one per member.
    const pid = two.process.pid!;
    await settle(3_000);
    const before = rssBytes(pid);
    for (let i = 0; i < holders.length; i += 50) {
      const batch = await Promise.all(
        holders
          .slice(i, i + 50)
          .map((id) => openStream(two.url, `Bearer ${signToken(id)}`, { query: 'tabs=for-you:0' })),
      );
      await Promise.all(batch.map((s) => s.next((e) => e.event === 'unread')));
      opened.push(...batch);
    }
    if (opened.some((s) => s.isEnded())) throw new Error('a stream ended early');
    await settle(5_000);
    memory = { before, after: rssBytes(pid) };
    console.log(`RSS ${fmt(before / 2 ** 20, 1)} MiB -> ${fmt(memory.after / 2 ** 20, 1)} MiB`);
  } finally {
    for (const s of opened) s.close();
    await one.stop();
    await two.stop();
    await database.close();
    await bench.close();
  }

  const perStream = (memory!.after - memory!.before) / OPEN;
  writeSection(
    'bench:stream',
    [
      `Fresh database, the API in its own processes on the embedded database (another process). ` +
        `${LIKES} likes per row, one at a time, each by another member: time from sending the like ` +
        `to the \`notification\` event on the liked member's stream (\`GET /api/stream\`).`,
      '',
      table(['Setup', 'Likes', 'p50 ms', 'p99 ms', 'max ms', 'like answered, p50 ms'], rows),
      '',
      `Memory with ${fmt(OPEN)} streams open on one API process (one member each, For You ` +
        `counted): resident memory ${fmt(memory!.before / 2 ** 20, 1)} MiB before, ` +
        `${fmt(memory!.after / 2 ** 20, 1)} MiB after: **${fmt(perStream / 1024, 1)} KiB per open ` +
        `stream**, an upper bound (resident memory also holds garbage not collected yet, so it varies ` +
        `from run to run): the socket, the response and the hub's bookkeeping; the process follows ` +
        `one change stream for all of them. Like-to-event latency minus the like's own answer time is ` +
        `the stream's share (tens of ms); the machine is shared, see its load above.`,
    ].join('\n'),
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
