/**
 * Benchmark (prints figures; not a test): text search over short posts through the driver. It
 * inserts N posts of 8 to 30 words (a Zipf-like draw from 20,000 words: the commonest is in about
 * one post in eight, most in a handful), builds a text index on them, and times, each as a page
 * of 20 sorted by text score with the score projected: a common word, a rare word, two words, a
 * phrase, a word with another condition, a compound index's prefix; then countDocuments of a
 * common word and the cost of inserts with the index in place.
 *   npm run bench:text -w @campus/embedded-mongo [-- --posts 100000]
 * (with `node --expose-gc --import tsx bench/text-bench.ts` the heap figure is exact).
 * The figures also go into its section of the repository's BENCHMARKS.md (BENCH_WRITE=0: not).
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { start } from '../src';
import { writeSection } from './report';

const { values } = parseArgs({ options: { posts: { type: 'string', default: '100000' } } });
const POSTS = Number(values.posts);
const VOCABULARY = 20_000;

/** A small deterministic PRNG (mulberry32), so every run indexes the same posts. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = random(42);
const SYLLABLES = 'ka lo mi ne ru sa to vi de fa go hu ji le mo pa qu ri su te wa xe yo zu'.split(
  ' ',
);
const words = Array.from({ length: VOCABULARY }, (_, i) => {
  let w = '';
  let n = i + 1;
  while (n > 0) {
    w += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return `${w}ing`;
});
/** Word i is drawn with probability ∝ 1 / (i + 20): a few common words, a long tail. */
const weights = words.map((_, i) => 1 / (i + 20));
const total = weights.reduce((a, b) => a + b, 0);
const cumulative: number[] = [];
weights.reduce((acc, w, i) => (cumulative[i] = acc + w / total), 0);
function word(): string {
  const r = rand();
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < r) lo = mid + 1;
    else hi = mid;
  }
  return words[lo]!;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function time(run: () => Promise<unknown>, n: number) {
  await run(); // warm (the first query builds nothing: the index is built by createIndex)
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await run();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return `p50 ${percentile(samples, 50).toFixed(2)} ms, p99 ${percentile(samples, 99).toFixed(2)} ms`;
}

async function main(): Promise<void> {
  const server = await start({ port: 0 });
  const client = await MongoClient.connect(server.uri);
  const posts = client.db('bench').collection('posts');
  const rows: Array<[string, string]> = [];
  try {
    const t0 = Date.UTC(2026, 0, 1);
    for (let i = 0; i < POSTS; i += 1000) {
      await posts.insertMany(
        Array.from({ length: Math.min(1000, POSTS - i) }, (_, k) => {
          const n = 8 + Math.floor(rand() * 23);
          return {
            authorId: (i + k) % 2000,
            content: Array.from({ length: n }, word).join(' '),
            deletedAt: (i + k) % 50 === 0 ? new Date(t0) : null,
            createdAt: new Date(t0 + (i + k) * 60_000),
          };
        }),
      );
    }
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let t = Date.now();
    await posts.createIndex({ content: 'text' });
    rows.push([`createIndex {content: 'text'} over ${POSTS} posts`, `${Date.now() - t} ms`]);
    global.gc?.();
    rows.push([
      global.gc
        ? 'heap grown by the build'
        : 'heap grown by the build (without --expose-gc: rough)',
      `${Math.round((process.memoryUsage().heapUsed - heapBefore) / 1e6)} MB`,
    ]);

    const counts = new Map<string, number>();
    for (const w of [words[0]!, words[300]!, words[10_000]!])
      counts.set(w, await posts.countDocuments({ $text: { $search: w } }));
    const page = (filter: object) => () =>
      posts
        .find(filter, { projection: { score: { $meta: 'textScore' } } })
        .sort({ score: { $meta: 'textScore' } })
        .limit(20)
        .toArray();
    const search = (s: string) => ({ $text: { $search: s } });
    rows.push([
      `page of 20: common word (in ${counts.get(words[0]!)} posts)`,
      await time(page(search(words[0]!)), 50),
    ]);
    rows.push([
      `page of 20: middling word (in ${counts.get(words[300]!)} posts)`,
      await time(page(search(words[300]!)), 100),
    ]);
    rows.push([
      `page of 20: rare word (in ${counts.get(words[10_000]!)} posts)`,
      await time(page(search(words[10_000]!)), 200),
    ]);
    rows.push([
      'page of 20: two words (common OR middling)',
      await time(page(search(`${words[0]} ${words[300]}`)), 50),
    ]);
    rows.push([
      'page of 20: phrase of two common words',
      await time(page(search(`"${words[0]} ${words[1]}"`)), 50),
    ]);
    rows.push([
      'page of 20: middling word and deletedAt: null',
      await time(page({ ...search(words[300]!), deletedAt: null }), 100),
    ]);
    rows.push([
      'countDocuments of the common word',
      await time(() => posts.countDocuments(search(words[0]!)), 50),
    ]);

    // With the index in place, an insert tokenizes the post: compared with a collection without.
    const plain = client.db('bench').collection('plain');
    const post = (i: number) => ({
      authorId: i,
      content: Array.from({ length: 20 }, word).join(' '),
    });
    for (const [label, coll] of [
      ['without a text index', plain],
      ['with the text index', posts],
    ] as const) {
      t = Date.now();
      for (let i = 0; i < 2000; i++) await coll.insertOne(post(i));
      rows.push([
        `insertOne of a 20-word post ${label}`,
        `${Math.round(2000 / ((Date.now() - t) / 1000))} docs/s`,
      ]);
    }

    // The compound form: an author's posts only (equality on the prefix, as mongod requires).
    await posts.dropIndex('content_text');
    t = Date.now();
    await posts.createIndex({ authorId: 1, content: 'text' });
    rows.push([`createIndex {authorId: 1, content: 'text'}`, `${Date.now() - t} ms`]);
    rows.push([
      "page of 20: common word among one author's posts",
      await time(page({ authorId: 7, ...search(words[0]!) }), 200),
    ]);
  } finally {
    await client.close();
    await server.stop();
  }
  const width = Math.max(...rows.map(([k]) => k.length));
  const lines = [
    `embedded-mongo text search: ${POSTS} posts, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}, node ${process.version}`,
    ...rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`),
  ];
  for (const line of lines) console.log(line);
  writeSection('bench:text', lines);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
