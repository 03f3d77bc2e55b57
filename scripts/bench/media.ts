/**
 * `npm run bench:media` (issue 39): what pictures in posts cost.
 *
 * 1. The CPU of processing one 12-megapixel JPEG as an upload is (api/src/modules/media: decode,
 *    rotate, the 2,048/1,200/400 px variants in WebP and AVIF, the ThumbHash), in this process
 *    with the worker's settings (one libvips thread, no cache), BENCH_MEDIA_RUNS times (default
 *    3): the median. Target ≤ 1.5 s.
 * 2. The p99 of other requests (`GET /api/posts`, 10 connections) against the API started from
 *    its sources on a fresh embedded database, without uploads, then while 5 members each upload
 *    12-megapixel JPEGs one after another: BENCH_MEDIA_ROUNDS (default 3) pairs of
 *    BENCH_MEDIA_SECONDS (default 8) each, the median of the rounds' ratios. Target ≤ 2×.
 *
 * Run it at normal priority, or under a small `nice` (the figures here: `nice -n 9`): the image
 * workers sit ten steps of niceness below the API (image-worker.ts), and under `nice -n 19` both
 * are at 19, so the second figure would measure a priority the API never has.
 *
 * Figures only, never a pass/fail: they go to BENCHMARKS.md (BENCH_WRITE=0: printed only).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcrypt';
import sharp from 'sharp';
import { connectDatabase } from '../../api/src/platform/db';
import { createModels } from '../../api/src/models';
import { startApi, startEmbeddedMongo } from './processes';
import { median, runLoad, signToken, type LoadResult } from './load';
import { fmt, table, writeSection } from './report';

const RUNS = Number(process.env.BENCH_MEDIA_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_MEDIA_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_MEDIA_ROUNDS ?? 3);
const UPLOADERS = 5;

/** A 4000×3000 photo-like JPEG: gradients, shapes and sensor-like noise, quality 88. */
async function twelveMegapixelJpeg(): Promise<Buffer> {
  const [width, height] = [4000, 3000];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#3a6"/><stop offset="1" stop-color="#a36"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="1400" cy="1500" r="900" fill="#fc3" opacity="0.7"/>
    <rect x="2400" y="600" width="1200" height="1800" rx="120" fill="#36c" opacity="0.6"/>
  </svg>`;
  const noise = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 12 },
    },
  })
    .raw()
    .toBuffer();
  return sharp(Buffer.from(svg))
    .composite([{ input: noise, raw: { width, height, channels: 3 }, blend: 'overlay' }])
    .jpeg({ quality: 88 })
    .toBuffer();
}

async function processingCpu(jpeg: Buffer) {
  // The worker's code with its settings (image-worker.ts: one libvips thread, no cache).
  const { processImage: run } = await import('../../api/src/modules/media/process-image');
  sharp.concurrency(1);
  sharp.cache(false);
  const runs: Array<{ cpuMs: number; wallMs: number; bytes: number[] }> = [];
  await run({ source: { bytes: jpeg }, maxPixels: 40_000_000 }); // warm: libraries loaded
  for (let i = 0; i < RUNS; i++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const result = await run({ source: { bytes: jpeg }, maxPixels: 40_000_000 });
    const used = process.cpuUsage(cpu);
    if (!result.ok) throw new Error(`the benchmark's JPEG was refused: ${result.message}`);
    runs.push({
      cpuMs: (used.user + used.system) / 1000,
      wallMs: performance.now() - started,
      bytes: result.variants.map((v) => v.data.length),
    });
    console.log(
      `12-MP JPEG: ${fmt(runs.at(-1)!.cpuMs)} ms CPU, ${fmt(runs.at(-1)!.wallMs)} ms wall; ` +
        result.variants
          .map((v) => `${v.width}px ${v.type} ${fmt(v.data.length / 1024)} KB`)
          .join(', '),
    );
  }
  return runs;
}

async function members(mongodbUri: string, count: number): Promise<number[]> {
  const database = await connectDatabase(mongodbUri, { models: createModels });
  try {
    const { User, Post } = database.models;
    const password = await bcrypt.hash('bench-password', 4);
    const ids = Array.from({ length: count }, (_, i) => i + 1);
    await User.insertMany(
      ids.map((id) => ({
        _id: id,
        name: `Bench ${id}`,
        email: `bench${id}@campus.edu`,
        password,
        isVerified: true,
      })),
    );
    await Post.insertMany(
      Array.from({ length: 60 }, (_, i) => ({
        _id: i + 1,
        authorId: ids[i % ids.length]!,
        content: `Bench post ${i + 1}`,
        createdAt: new Date(Date.now() - i * 60_000),
      })),
    );
    return ids;
  } finally {
    await database.close();
  }
}

async function main() {
  const jpeg = await twelveMegapixelJpeg();
  console.log(`the 12-MP JPEG: ${fmt(jpeg.length / 1024)} KB`);
  const cpuRuns = await processingCpu(jpeg);

  const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'bench-media-'));
  const db = await startEmbeddedMongo(path.join(dir, 'db'));
  const api = await startApi({ mongodbUri: db.uri, dataDir: path.join(dir, 'api') });
  try {
    const ids = await members(db.uri, UPLOADERS + 1);
    const reader = `Bearer ${signToken(ids[0]!)}`;
    const feed = () =>
      runLoad({
        url: `${api.url}/api/posts`,
        headers: { Authorization: reader },
        connections: 10,
        duration: SECONDS,
      });
    await feed(); // warm: caches and JIT

    const uploads: number[] = [];
    const failures: string[] = [];
    /** The feed's load while 5 members each upload one 12-MP JPEG after another. */
    const feedWhileUploading = async () => {
      let uploading = true;
      const uploader = async (id: number) => {
        const auth = `Bearer ${signToken(id)}`;
        while (uploading) {
          const form = new FormData();
          form.append('image', new Blob([jpeg], { type: 'image/jpeg' }), 'photo.jpg');
          const started = performance.now();
          const res = await fetch(`${api.url}/api/media`, {
            method: 'POST',
            headers: { Authorization: auth },
            body: form,
          });
          await res.arrayBuffer();
          if (res.status === 201) uploads.push(performance.now() - started);
          else failures.push(String(res.status));
        }
      };
      const uploaders = ids.slice(1).map(uploader);
      const result = await feed();
      uploading = false;
      // The uploads under way finish before the next quiet round.
      await Promise.all(uploaders);
      return result;
    };
    // Quiet and busy rounds in turn, so both see the same moments of a shared machine.
    const rounds: Array<{ quiet: LoadResult; busy: LoadResult }> = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const quiet = await feed();
      const busy = await feedWhileUploading();
      rounds.push({ quiet, busy });
      console.log(
        `round ${round}: feed alone p99 ${quiet.p99} ms (${fmt(quiet.requestsPerSecond)} req/s), ` +
          `while ${UPLOADERS} members upload p99 ${busy.p99} ms (${fmt(busy.requestsPerSecond)} req/s): ` +
          `${fmt(busy.p99 / Math.max(1, quiet.p99), 2)}×; ${uploads.length} uploads so far, ${failures.length} failed`,
      );
    }
    const middle = (pick: (r: { quiet: LoadResult; busy: LoadResult }) => number) =>
      median(rounds.map(pick));
    const quiet = {
      p50: middle((r) => r.quiet.p50),
      p99: middle((r) => r.quiet.p99),
      requestsPerSecond: middle((r) => r.quiet.requestsPerSecond),
      errors: rounds.reduce((sum, r) => sum + r.quiet.errors, 0),
    };
    const busy = {
      p50: middle((r) => r.busy.p50),
      p99: middle((r) => r.busy.p99),
      requestsPerSecond: middle((r) => r.busy.requestsPerSecond),
      errors: rounds.reduce((sum, r) => sum + r.busy.errors, 0),
    };

    const cpuMs = median(cpuRuns.map((r) => r.cpuMs));
    const ratio = middle((r) => r.busy.p99 / Math.max(1, r.quiet.p99));
    const body = [
      `Processing one 12-megapixel JPEG (${fmt(jpeg.length / 1024)} KB) as an upload, median of ${RUNS}: ` +
        `**${fmt(cpuMs)} ms of CPU** (target ≤ 1,500), ${fmt(median(cpuRuns.map((r) => r.wallMs)))} ms wall.`,
      '',
      table(
        [
          `\`GET /api/posts\`, 10 connections, ${SECONDS} s, median of ${ROUNDS} rounds`,
          'p50 ms',
          'p99 ms',
          'req/s',
          'errors',
        ],
        [
          ['alone', quiet.p50, quiet.p99, fmt(quiet.requestsPerSecond), quiet.errors],
          [
            `while ${UPLOADERS} members upload 12-MP JPEGs (${uploads.length} done)`,
            busy.p50,
            busy.p99,
            fmt(busy.requestsPerSecond),
            busy.errors,
          ],
        ],
      ),
      '',
      `p99 with uploads / without, the median of each round's ratio: **${fmt(ratio, 2)}×** (target ≤ 2×; ` +
        `rounds ${rounds.map((r) => `${fmt(r.busy.p99 / Math.max(1, r.quiet.p99), 2)}×`).join(', ')}); ` +
        `${uploads.length} uploads, median ${fmt(median(uploads))} ms each (queued behind each other). The machine's 1-minute load ` +
        `average at the end: ${fmt(os.loadavg()[0]!, 1)} on ${os.cpus().length} CPUs (other jobs ` +
        'count: a ratio from a shared machine says little).',
    ].join('\n');
    console.log(`\n${body}\n`);
    writeSection('bench:media', body);
  } finally {
    await api.stop();
    await db.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
