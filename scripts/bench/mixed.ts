/**
 * `npm run bench:mixed`: 60 s at 50 connections of the issue's mix (70 % feed reads, 10 % like
 * toggles, 5 % posts, 5 % comments, 5 % follows, 5 % notifications) by 500 members against the
 * API on a copy of the bench dataset; prints the errors (must be 0), then recounts every
 * denormalized count (must match). Runs once with one API process and once with two
 * (API_PROCESSES=2: node's cluster spreads the connections, each process with its own caches,
 * kept coherent by change streams). Exits non-zero when any run has an error or a mismatch.
 *
 * Each run is BENCH_REPEATS (default 3) repetitions, each after BENCH_HELLO_DURATION (default 5)
 * seconds of the bare Koa hello-world, with the CPU per request of the API process(es) and of the
 * database process and its ratio to the hello-world's (medians), and the load generator's own CPU
 * per request (this process): the three share the machine's cores, so their sum says how many
 * requests per second of this mix the machine could answer at most.
 *
 * Before the first repetition, BENCH_MIXED_WARMUP seconds (default 10) of the same mix are sent and
 * not counted: the API's start-up (modules loaded on first use, code not yet optimized, empty read
 * caches) is not a cost of the requests measured.
 *
 * BENCH_MIXED_DURATION (seconds per repetition, default 60), BENCH_CONNECTIONS (default 50),
 * BENCH_MIXED_PROCESSES (the runs' API_PROCESSES, default "1,2"; a run without both leaves
 * BENCHMARKS.md alone, as BENCH_WRITE=0 does). BENCH_MIXED_COMMANDS=<n>: the
 * database commands and CPU each operation costs instead (see countCommands;
 * BENCH_MIXED_COMMANDS_APPS=2 for two apps). `--scale N` (or BENCH_SCALE) runs on a copy of the
 * dataset `bench:data --scale N` made (issue 42). Each repetition also samples the resident memory
 * of the API processes and of the database once a second (the highest is printed).
 * BENCH_JSON=<file> also writes the runs' figures there (what `bench:scale` reads).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { CommandStartedEvent } from 'mongodb';
import { createApp } from '../../api/src/app';
import { createModels } from '../../api/src/models';
import { loadConfig } from '../../api/src/platform/config';
import { connectDatabase } from '../../api/src/platform/db';
import { createLogger } from '../../api/src/platform/logger';
import { mailTransportFor } from '../../api/src/platform/mailer';
import { findCountMismatches } from '../../api/src/modules/posts/recount';
import { BENCH_DIR, DATASET_DIR, openBenchDatabase } from './database';
import { cpuMeter, cpuMs, perRequestUs, residentMeter } from './cpu';
import { CONNECTIONS, median, runLoad, signToken, type LoadResult } from './load';
import { BENCH_JWT_SECRET, startApi, startKoaCeiling } from './processes';
import { fmt, table, writeJsonFigures, writeSection } from './report';

const DURATION = Number(process.env.BENCH_MIXED_DURATION ?? 60);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const HELLO_DURATION = Number(process.env.BENCH_HELLO_DURATION ?? 5);
const WARMUP = Number(process.env.BENCH_MIXED_WARMUP ?? 10);
const RUNS = (process.env.BENCH_MIXED_PROCESSES ?? '1,2').split(',').map(Number);
const MEMBERS = 500;
/** The cores the API, the database and the load generator share. */
const CORES = os.availableParallelism();
const COMMANDS = Number(process.env.BENCH_MIXED_COMMANDS ?? 0);
const COMMAND_APPS = Number(process.env.BENCH_MIXED_COMMANDS_APPS ?? 1);

type Kind = 'feed' | 'like' | 'post' | 'comment' | 'follow' | 'notifications';
const MIX: Array<[Kind, number]> = [
  ['feed', 70],
  ['like', 10],
  ['post', 5],
  ['comment', 5],
  ['follow', 5],
  ['notifications', 5],
];
const FEEDS = ['', 'tab=following&', 'tab=following&', 'tab=jd&', 'topFilter=true&'];

interface Tally {
  sent: number;
  errors: number;
  statuses: Record<number, number>;
}

type Actor = { id: number; header: string };
interface MixRequest {
  kind: Kind;
  method: string;
  path: string;
  body?: string;
  actor: Actor;
}

/** Draws requests of the mix: who acts, on which post or member, with which body. */
function requestBuilder(auth: Actor[], postIds: number[], userIds: number[]): () => MixRequest {
  const totalWeight = MIX.reduce((s, [, w]) => s + w, 0);
  const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)]!;
  let seq = 0;
  return () => {
    let r = Math.random() * totalWeight;
    const kind = MIX.find(([, w]) => (r -= w) < 0)?.[0] ?? 'feed';
    const actor = pick(auth);
    const post = pick(postIds);
    switch (kind) {
      case 'feed':
        return {
          kind,
          actor,
          method: 'GET',
          path: `/api/posts?${pick(FEEDS)}limit=20&offset=${Math.random() < 0.8 ? 0 : 20 * Math.floor(Math.random() * 10)}`,
        };
      case 'like':
        return { kind, actor, method: 'POST', path: `/api/posts/${post}/like` };
      case 'post':
        return {
          kind,
          actor,
          method: 'POST',
          path: '/api/posts',
          body: JSON.stringify({
            content: `Mixed load post ${++seq}`,
            isJdTagged: Math.random() < 0.15,
          }),
        };
      case 'comment':
        return {
          kind,
          actor,
          method: 'POST',
          path: `/api/posts/${post}/comments`,
          body: JSON.stringify({ content: `Mixed load comment ${++seq}` }),
        };
      case 'follow': {
        let target = pick(userIds);
        while (target === actor.id) target = pick(userIds);
        return { kind, actor, method: 'POST', path: `/api/users/${target}/follow` };
      }
      default:
        return { kind, actor, method: 'GET', path: '/api/notifications' };
    }
  };
}

/**
 * BENCH_MIXED_COMMANDS=<n>: instead of the load, `n` requests of the mix one after the other
 * (after n/5 not counted) against the API in this process, with the driver's command monitoring:
 * the database commands each operation sends (a feed read per tab), which of them run in a
 * transaction, and `getMore` (the app's change stream bringing writes back), and the CPU each
 * operation costs: this process's (the API, plus the client's share, the same for every
 * operation) and the database process's. BENCH_MIXED_COMMANDS_APPS=2: the same against two apps
 * in this process, each on its own connection (two API processes), each request to one at random.
 * Prints only.
 */
async function countCommands(
  uri: string,
  build: () => MixRequest,
  n: number,
  dbPid: number | undefined,
): Promise<void> {
  const env = {
    NODE_ENV: 'production',
    JWT_SECRET: BENCH_JWT_SECRET,
    SMTP_URL: 'smtp://127.0.0.1:1',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: 'http://127.0.0.1',
    WEB_URL: 'http://127.0.0.1:3000',
    ALLOWED_ORIGINS: 'http://127.0.0.1:3000',
  };
  const base = loadConfig(env);
  const config = {
    ...base,
    memberLimits: Object.fromEntries(
      Object.keys(base.memberLimits).map((action) => [action, { perMinute: 0, perDay: 0 }]),
    ) as typeof base.memberLimits,
  };
  const logger = createLogger('warn');
  // BENCH_MIXED_COMMANDS_APPS=2: two apps, each on its own connection with its own caches and
  // change stream (what two API processes are), each request sent to one of them at random.
  const apps = await Promise.all(
    Array.from({ length: COMMAND_APPS }, async () => {
      const database = await connectDatabase(uri, {
        models: createModels,
        driver: { monitorCommands: true },
      });
      const app = createApp({
        config,
        logger,
        mailTransport: mailTransportFor(
          { ...config, smtpUrl: undefined, dataDir: BENCH_DIR },
          logger,
        ),
        jwtSecret: BENCH_JWT_SECRET,
        database,
      });
      const server = http.createServer(app.callback());
      // Requests come one at a time, to one app or the other: the server must not close a kept
      // connection just as fetch sends on it ("fetch failed"); fetch closes idle ones itself.
      server.keepAliveTimeout = 120_000;
      server.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return { database, app, server, url };
    }),
  );
  const perLabel = new Map<
    string,
    { requests: number; commands: Map<string, number>; cpuUs: number; dbMs: number }
  >();
  let current: string | undefined;
  const onCommand = (event: CommandStartedEvent) => {
    if (current === undefined) return;
    const command = event.command as Record<string, unknown>;
    const target = command[event.commandName];
    const where =
      command.autocommit === false
        ? ' (in a transaction)'
        : command.txnNumber
          ? ' (retryable)'
          : '';
    const name = `${event.commandName}${typeof target === 'string' ? ` ${target}` : ''}${where}`;
    const tally = perLabel.get(current)!;
    tally.commands.set(name, (tally.commands.get(name) ?? 0) + 1);
  };
  for (const { database } of apps) database.connection.getClient().on('commandStarted', onCommand);
  try {
    const warmup = Math.round(n / 5);
    for (let i = 0; i < warmup + n; i++) {
      const r = build();
      const tab = r.kind === 'feed' ? (/tab=(\w+)|topFilter/.exec(r.path)?.[0] ?? 'for you') : '';
      const label = r.kind === 'feed' ? `feed (${tab.replace('tab=', '')})` : r.kind;
      if (i >= warmup) {
        current = label;
        if (!perLabel.has(label))
          perLabel.set(label, { requests: 0, commands: new Map(), cpuUs: 0, dbMs: 0 });
        perLabel.get(label)!.requests += 1;
      }
      const cpuBefore = process.cpuUsage();
      const dbBefore = cpuMs(dbPid);
      const { url } = apps[Math.floor(Math.random() * apps.length)]!;
      const res = await fetch(url + r.path, {
        method: r.method,
        body: r.body,
        headers: {
          authorization: r.actor.header,
          ...(r.body ? { 'content-type': 'application/json' } : {}),
        },
      });
      await res.arrayBuffer();
      if (res.status >= 400) console.log(`${r.method} ${r.path}: ${res.status}`);
      if (current !== undefined) {
        // This process's CPU: the API, and the client sending the request (the same for every
        // operation); the database's from /proc (clock ticks: exact summed over many requests).
        const cpu = process.cpuUsage(cpuBefore);
        const tally = perLabel.get(current)!;
        tally.cpuUs += cpu.user + cpu.system;
        tally.dbMs += cpuMs(dbPid) - dbBefore;
      }
      current = undefined;
    }
    let total = 0;
    let totalCpuUs = 0;
    let totalDbMs = 0;
    for (const [label, tally] of [...perLabel].sort()) {
      const sum = [...tally.commands.values()].reduce((a, b) => a + b, 0);
      total += sum;
      totalCpuUs += tally.cpuUs;
      totalDbMs += tally.dbMs;
      console.log(
        `\n${label}: ${fmt(tally.requests)} requests, ${fmt(sum / tally.requests, 2)} commands each; ` +
          `CPU each: API and client ${fmt(tally.cpuUs / tally.requests)} µs, database ${fmt((1000 * tally.dbMs) / tally.requests)} µs`,
      );
      for (const [name, count] of [...tally.commands].sort((a, b) => b[1] - a[1]))
        console.log(`  ${fmt(count / tally.requests, 2).padStart(6)}  ${name}`);
    }
    console.log(
      `\nthe mix: ${fmt(total / n, 2)} commands per request; CPU per request: API and client ${fmt(totalCpuUs / n)} µs, database ${fmt((1000 * totalDbMs) / n)} µs`,
    );
  } finally {
    for (const { server, app, database } of apps) {
      server.close();
      await app.close();
      await database.close();
    }
  }
}

async function main() {
  const db = await openBenchDatabase({
    dir: path.join(BENCH_DIR, 'mixed-db'),
    copyFrom: DATASET_DIR,
  });
  let api: Awaited<ReturnType<typeof startApi>> | undefined;
  let stopCeiling: (() => Promise<void>) | undefined;
  try {
    const { models } = await db.connect();
    const { User, Post } = models;
    // The dataset's size (BENCH_SCALE of bench:data), written next to the figures.
    const [users, posts, likes] = await Promise.all([
      User.estimatedDocumentCount(),
      Post.estimatedDocumentCount(),
      models.Like.estimatedDocumentCount(),
    ]);
    const dataset = `${fmt(users)} users, ${fmt(posts)} posts, ${fmt(likes)} likes`;
    const members = await User.find({ isVerified: true }, { _id: 1 })
      .sort({ lastActiveAt: -1 })
      .limit(MEMBERS)
      .lean();
    const userIds = (await User.find({}, { _id: 1 }).lean()).map((u) => u._id);
    const postIds = (
      await Post.find({ deletedAt: null, originalPostId: null }, { _id: 1 })
        .sort({ createdAt: -1 })
        .limit(2000)
        .lean()
    ).map((p) => p._id);
    if (members.length === 0 || postIds.length === 0)
      throw new Error('The bench database is empty: run `npm run bench:data` first');
    const auth = members.map((m) => ({ id: m._id, header: `Bearer ${signToken(m._id)}` }));
    if (COMMANDS > 0) {
      await countCommands(db.uri, requestBuilder(auth, postIds, userIds), COMMANDS, db.pid);
      return;
    }

    const runOnce = async (processes: number) => {
      api = await startApi({ mongodbUri: db.uri, dataDir: BENCH_DIR, processes });
      const tallies = new Map<Kind, Tally>(
        MIX.map(([k]) => [k, { sent: 0, errors: 0, statuses: {} }]),
      );
      const build = requestBuilder(auth, postIds, userIds);

      console.log(
        `\nAPI_PROCESSES=${processes}: ${CONNECTIONS} connections for ${DURATION} s × ${REPEATS}, ${auth.length} members, ${fmt(postIds.length)} posts to act on`,
      );
      const reps: Array<{
        load: LoadResult;
        apiResidentBytes: number;
        dbResidentBytes: number;
        helloUs: number;
        apiUs: number;
        clientUs: number;
        dbUs: number;
        apiMs: number;
        dbMs: number;
      }> = [];
      let counting = false;
      const mixed = (duration: number) =>
        runLoad({
          url: api!.url,
          duration,
          requests: [
            {
              setupRequest: (req, context) => {
                const r = build();
                (context as { kind?: Kind }).kind = r.kind;
                if (counting) tallies.get(r.kind)!.sent += 1;
                return {
                  ...req,
                  method: r.method as 'GET',
                  path: r.path,
                  body: r.body,
                  headers: {
                    authorization: r.actor.header,
                    ...(r.body ? { 'content-type': 'application/json' } : {}),
                  },
                };
              },
              onResponse: (status, _body, context) => {
                const tally = tallies.get((context as { kind: Kind }).kind)!;
                if (status >= 400) tally.errors += 1;
                if (!counting) return;
                tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
              },
            },
          ],
        });
      // Not counted: the API's first seconds (modules loaded on first use, cold caches, code not
      // yet optimized). Its errors are still errors.
      const warmup = WARMUP > 0 ? await mixed(WARMUP) : undefined;
      if (warmup) {
        console.log(
          `warm-up (not counted): ${fmt(warmup.total)} requests in ${WARMUP} s, errors: ${warmup.errors}`,
        );
      }
      counting = true;
      for (let rep = 0; rep < REPEATS; rep++) {
        const helloMeter = cpuMeter({ hello: ceiling.process.pid });
        const hello = await runLoad({ url: ceiling.url, duration: HELLO_DURATION });
        const helloCpu = helloMeter.stop();
        const meter = cpuMeter({ api: api.process.pid, db: db.pid });
        const memory = residentMeter(api.process.pid);
        const dbMemory = residentMeter(db.pid);
        // The load generator's own CPU (this process: autocannon building requests and parsing
        // answers): it shares the machine's cores with the API and the database.
        const clientBefore = process.cpuUsage();
        const load = await mixed(DURATION);
        const cpu = meter.stop();
        const client = process.cpuUsage(clientBefore);
        const rep = {
          load,
          apiResidentBytes: memory.stop().highestProcessBytes,
          dbResidentBytes: dbMemory.stop().highestProcessBytes,
          helloUs: perRequestUs(helloCpu.hello, hello.total),
          // A repetition that answered nothing cost its CPU for nothing: infinitely much per request.
          apiUs: load.total > 0 ? perRequestUs(cpu.api, load.total) : Infinity,
          dbUs: load.total > 0 ? perRequestUs(cpu.db, load.total) : Infinity,
          clientUs:
            load.total > 0
              ? perRequestUs((client.user + client.system) / 1000, load.total)
              : Infinity,
          apiMs: cpu.api,
          dbMs: cpu.db,
        };
        reps.push(rep);
        console.log(
          `${fmt(load.total)} requests, ${fmt(load.requestsPerSecond)} req/s, p50 ${load.p50} ms, p99 ${load.p99} ms; ` +
            `CPU/request: API ${fmt(rep.apiUs)} µs, database ${fmt(rep.dbUs)} µs (hello-world ${fmt(rep.helloUs)} µs: ${fmt((rep.apiUs + rep.dbUs) / rep.helloUs, 1)}×), load generator ${fmt(rep.clientUs)} µs`,
        );
        console.log(`errors: ${load.errors} (status codes: ${JSON.stringify(load.statusCodes)})`);
        console.log(
          `resident memory (highest): an API process ${fmt(rep.apiResidentBytes / 2 ** 20)} MiB, the database ${fmt(rep.dbResidentBytes / 2 ** 20)} MiB`,
        );
      }
      await api.stop();
      api = undefined;
      const load = {
        total: reps.reduce((s, r) => s + r.load.total, 0),
        errors: reps.reduce((s, r) => s + r.load.errors, 0) + (warmup?.errors ?? 0),
        requestsPerSecond: median(reps.map((r) => r.load.requestsPerSecond)),
        p50: median(reps.map((r) => r.load.p50)),
        p99: median(reps.map((r) => r.load.p99)),
      };
      const memory = {
        apiResidentBytes: Math.max(...reps.map((r) => r.apiResidentBytes)),
        dbResidentBytes: Math.max(...reps.map((r) => r.dbResidentBytes)),
      };
      const cpu = {
        apiUs: median(reps.map((r) => r.apiUs)),
        dbUs: median(reps.map((r) => r.dbUs)),
        clientUs: median(reps.map((r) => r.clientUs)),
        helloUs: median(reps.map((r) => r.helloUs)),
        ratio: median(reps.map((r) => (r.helloUs > 0 ? (r.apiUs + r.dbUs) / r.helloUs : 0))),
        // Every repetition's CPU over every request it answered (not thrown off by one that answered none).
        pooledUs: perRequestUs(
          reps.reduce((s, r) => s + r.apiMs + r.dbMs, 0),
          reps.reduce((s, r) => s + r.load.total, 0),
        ),
      };
      console.log(
        `medians: ${fmt(load.requestsPerSecond)} req/s, p50 ${load.p50} ms, p99 ${load.p99} ms; CPU/request API ${fmt(cpu.apiUs)} µs + database ${fmt(cpu.dbUs)} µs = ${fmt(cpu.ratio, 1)}× the hello-world's ${fmt(cpu.helloUs)} µs; all repetitions together ${fmt(cpu.pooledUs)} µs`,
      );
      const recountStarted = performance.now();
      const mismatches = await findCountMismatches({ models });
      const recountMs = performance.now() - recountStarted;
      console.log(`recount: ${mismatches.length} mismatches (${fmt(recountMs / 1000, 1)} s)`);
      for (const m of mismatches.slice(0, 20)) console.log(`  ${JSON.stringify(m)}`);

      // Per operation of the mix: requests sent, status codes answered, errors.
      const operations = MIX.map(([kind]) => {
        const t = tallies.get(kind)!;
        const statuses = Object.entries(t.statuses).map(([s, n]) => `${s}: ${fmt(n)}`);
        return `${kind} ${fmt(t.sent)} (${[...statuses, `${t.errors} errors`].join(', ')})`;
      }).join('; ');
      return { processes, load, cpu, memory, mismatches, recountMs, operations };
    };

    const ceiling = await startKoaCeiling();
    stopCeiling = () => ceiling.stop();
    const runs: Array<Awaited<ReturnType<typeof runOnce>>> = [];
    for (const processes of RUNS) runs.push(await runOnce(processes));
    const total = (run: (typeof runs)[number]) => run.cpu.apiUs + run.cpu.dbUs;
    writeJsonFigures({
      dataset,
      runs: runs.map(({ processes, load, cpu, memory, mismatches }) => ({
        processes,
        ...load,
        ...cpu,
        ...memory,
        mismatches: mismatches.length,
      })),
    });
    writeSection(
      'bench:mixed',
      [
        `${DURATION} s at ${CONNECTIONS} connections per repetition, ${auth.length} members (the most recently active), on a copy of the bench dataset (${dataset}); ` +
          `the mix: ${MIX.map(([kind, weight]) => `${kind} ${weight} %`).join(', ')}; feed reads spread over the tabs (For You, Following twice as often, JD, Top Posts), 80 % first pages. ` +
          "One run per number of API processes (node's cluster), one after the other on the same copy, each followed by a recount of every denormalized count (`findCountMismatches`). " +
          `Each run starts with ${WARMUP} s of the same mix that is not counted (modules loaded on first use, code not yet optimized, empty caches), though its errors are; then ${REPEATS} repetitions of ${DURATION} s, each after ${HELLO_DURATION} s of the bare Koa hello-world; medians. ` +
          "CPU per request: `/proc/<pid>/stat` of the API process(es) and of the database process (pooled: all repetitions' CPU over all their requests); the load generator (autocannon, in the benchmark's process) " +
          `shares the machine's ${CORES} cores, so the ceiling is ${CORES} cores ÷ API + database + load generator per request. Errors: non-2xx responses, connection errors and timeouts.`,
        '',
        table(
          [
            'API processes',
            'requests',
            'req/s',
            'p50 ms',
            'p99 ms',
            'API + DB µs/req (pooled)',
            '÷ hello-world',
            'load generator µs/req',
            'ceiling req/s',
            'errors',
            'count mismatches (recount s)',
            'resident MiB: an API process / DB (highest)',
            'requests by operation (status codes, errors)',
          ],
          runs.map((run) => [
            run.processes,
            fmt(run.load.total),
            fmt(run.load.requestsPerSecond),
            run.load.p50,
            run.load.p99,
            `${fmt(run.cpu.apiUs)} + ${fmt(run.cpu.dbUs)} = ${fmt(total(run))} (${fmt(run.cpu.pooledUs)})`,
            `${fmt(run.cpu.ratio, 1)}× (${fmt(run.cpu.helloUs)} µs)`,
            fmt(run.cpu.clientUs),
            fmt((CORES * 1e6) / (total(run) + run.cpu.clientUs)),
            run.load.errors,
            `${run.mismatches.length} (${fmt(run.recountMs / 1000, 1)})`,
            `${fmt(run.memory.apiResidentBytes / 2 ** 20)} / ${fmt(run.memory.dbResidentBytes / 2 ** 20)}`,
            run.operations,
          ]),
        ),
      ].join('\n'),
      {
        skip:
          RUNS.includes(1) && RUNS.includes(2)
            ? undefined
            : 'BENCH_MIXED_PROCESSES leaves out the run with 1 or with 2 API processes',
      },
    );
    if (runs.some((run) => run.load.errors > 0 || run.mismatches.length > 0)) process.exitCode = 1;
  } finally {
    await api?.stop();
    await stopCeiling?.();
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
