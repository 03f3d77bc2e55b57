/**
 * Benchmark (prints figures; not a test): the server's CPU per query of the API's read shapes on
 * the 100k dataset after a restart from its snapshot, for this checkout's server and, with
 * `--before <cli>`, another's (e.g. a worktree of an older commit) started beside it on its own
 * copy of the dataset. The rows of the two run interleaved (before, after, after, before...), one
 * query at a time from one client, so the machine's load moves both alike; CPU is read from
 * /proc/<pid>/stat of each server (its client's work is not counted).
 *   npm run bench:snapshot-reads -w @campus/embedded-mongo [-- --before <cli> --ops 1000 --rounds 3]
 * The default directory is the API benchmark's dataset (`npm run bench:data`). The figures also go
 * into its section of the repository's BENCHMARKS.md (BENCH_WRITE=0: not); the "after" column is
 * this checkout's server.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient, type Db } from 'mongodb';
import { writeSection } from './report';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const { values } = parseArgs({
  options: {
    dbpath: { type: 'string', default: path.join(REPO_ROOT, '.data/bench/db') },
    before: { type: 'string' },
    ops: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '3' },
  },
});
const OPS = Number(values.ops);
const ROUNDS = Number(values.rounds);
const TICK_MS = 10;

function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

interface Server {
  name: string;
  child: ChildProcess;
  client: MongoClient;
  db: Db;
  dir: string;
}

async function startServer(name: string, bin: string): Promise<Server> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-reads-'));
  execFileSync('cp', ['-r', `${values.dbpath}/.`, dir]);
  const child = spawn(
    process.execPath,
    [
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      ...(require('../bin/node-args.cjs') as string[]),
      bin,
      '--port',
      '0',
      '--dbpath',
      dir,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const uri = await new Promise<string>((resolve, reject) => {
    let out = '';
    let uri: string | undefined;
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      uri ??= /listening on (mongodb:\/\/\S+)/.exec(out)?.[1];
      if (uri && /warm:/.test(out)) resolve(uri);
    });
    child.on('exit', (code) => reject(new Error(`${name}: embedded-mongo exited with ${code}`)));
  });
  const client = await MongoClient.connect(`${uri}/?directConnection=true`);
  return { name, child, client, db: client.db('campus'), dir };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function main(): Promise<void> {
  const servers = [
    ...(values.before ? [await startServer('before', path.resolve(values.before))] : []),
    await startServer('after', path.join(__dirname, '../bin/embedded-mongo.cjs')),
  ];
  try {
    // Values the queries use, read from the dataset (the same in every copy).
    const db = servers[0]!.db;
    const users = (
      await db
        .collection('users')
        .find({}, { projection: { _id: 1 } })
        .limit(300)
        .toArray()
    ).map((u) => u._id);
    const posts = (
      await db
        .collection('posts')
        .find({ deletedAt: null }, { projection: { _id: 1 } })
        .sort({ createdAt: -1, _id: -1 })
        .limit(4000)
        .toArray()
    ).map((p) => p._id);
    const commented = (
      await db
        .collection('comments')
        .find({}, { projection: { postId: 1 } })
        .limit(2000)
        .toArray()
    ).map((c) => c.postId);
    const pick = <T>(xs: T[], i: number, n = 1): T[] =>
      Array.from({ length: n }, (_, k) => xs[(i * 7919 + k * 104_729) % xs.length] as T);

    const rows: Array<[string, (db: Db, i: number) => Promise<unknown>]> = [
      [
        'posts: 20 by _id $in',
        (d, i) =>
          d
            .collection('posts')
            .find({ _id: { $in: pick(posts, i, 20) } })
            .toArray(),
      ],
      [
        'posts: newest 20, skip 180 (For You)',
        (d, i) =>
          d
            .collection('posts')
            .find({ deletedAt: null })
            .sort({ createdAt: -1, _id: -1 })
            .skip((i % 10) * 20)
            .limit(21)
            .toArray(),
      ],
      [
        'posts: 50 authors $in, newest 21 (Following)',
        (d, i) =>
          d
            .collection('posts')
            .find({ authorId: { $in: pick(users, i, 50) }, deletedAt: null })
            .sort({ createdAt: -1, _id: -1 })
            .limit(21)
            .toArray(),
      ],
      [
        "likes: a viewer's likes of 20 posts",
        (d, i) =>
          d
            .collection('likes')
            .find({ userId: pick(users, i)[0], postId: { $in: pick(posts, i, 20) } })
            .toArray(),
      ],
      [
        'comments: first 21 top-level of a post',
        (d, i) =>
          d
            .collection('comments')
            .find({ postId: pick(commented, i)[0], parentId: null })
            .sort({ createdAt: 1, _id: 1 })
            .limit(21)
            .toArray(),
      ],
      [
        "notifications: a member's newest 21",
        (d, i) =>
          d
            .collection('notifications')
            .find({ userId: pick(users, i)[0] })
            .sort({ createdAt: -1, _id: -1 })
            .limit(21)
            .toArray(),
      ],
      [
        'likes: count of a post',
        (d, i) => d.collection('likes').countDocuments({ postId: pick(posts, i)[0] }),
      ],
    ];
    const results = new Map<string, Map<string, number[]>>();
    const run = async (s: Server, name: string, query: (db: Db, i: number) => Promise<unknown>) => {
      const cpu = cpuMs(s.child.pid as number);
      for (let i = 0; i < OPS; i++) await query(s.db, i);
      const us = ((cpuMs(s.child.pid as number) - cpu) * 1000) / OPS;
      const byServer = results.get(name) ?? new Map<string, number[]>();
      results.set(name, byServer);
      (byServer.get(s.name) ?? byServer.set(s.name, []).get(s.name)!).push(us);
    };
    // Once unmeasured (JIT), then ROUNDS times, the order of the servers alternating.
    for (const [, query] of rows)
      for (const s of servers) for (let i = 0; i < 200; i++) await query(s.db, i);
    for (let r = 0; r < ROUNDS; r++)
      for (const [name, query] of rows)
        for (const s of r % 2 ? [...servers].reverse() : servers) await run(s, name, query);
    const width = Math.max(...rows.map(([n]) => n.length));
    const lines = [
      `embedded-mongo server CPU per query after a restart (${path.basename(values.dbpath)}), ` +
        `${OPS} queries per row, median of ${ROUNDS} rounds, load average ${os.loadavg()[0]?.toFixed(1)}, node ${process.version}`,
      `${'query'.padEnd(width)}  ${servers.map((s) => `${s.name} µs`.padStart(10)).join('  ')}`,
    ];
    for (const [name] of rows) {
      const byServer = results.get(name)!;
      const cells = servers.map((s) => median(byServer.get(s.name)!));
      const ratio =
        cells.length === 2 ? `  after ÷ before ${(cells[1]! / cells[0]!).toFixed(2)}` : '';
      lines.push(
        `${name.padEnd(width)}  ${cells.map((c) => c.toFixed(0).padStart(10)).join('  ')}${ratio}`,
      );
    }
    for (const line of lines) console.log(line);
    writeSection('bench:snapshot-reads', lines);
  } finally {
    for (const s of servers) {
      await s.client.close();
      s.child.kill('SIGTERM');
      await new Promise((r) => s.child.once('exit', r));
      fs.rmSync(s.dir, { recursive: true, force: true });
    }
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
