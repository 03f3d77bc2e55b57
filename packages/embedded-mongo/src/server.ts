/**
 * The TCP server: frames messages per connection, runs each command against the engine,
 * commits the journal, then replies (OP_REPLY to the legacy handshake, OP_MSG otherwise).
 * A malformed message closes that connection; it never takes the server down.
 */
import net from 'node:net';
import { Engine, type EngineOptions } from './engine';
import type { CommandContext } from './commands/dispatch';
import { CURSOR_TIMEOUT_MS } from './commands/context';
import { ServerState } from './commands/admin';
import { reapIdleCursors } from './commands/cursors';
import type { Doc } from './values';
import { FailPoints } from './failpoints';
import { ReplicaSet } from './replset';
import { commandStats } from './command-stats';
import { JournalWriteError } from './journal';
import {
  encodeMsg,
  encodeReply,
  FLAG_MORE_TO_COME,
  MAX_MESSAGE_BYTES,
  parseMessage,
  ProtocolError,
} from './wire';

export interface ServerOptions extends EngineOptions {
  port?: number;
  host?: string;
  /** Called for protocol errors and other connection-level problems (default: ignore). */
  onError?: (err: Error) => void;
  /** Serve mongod's test commands (`configureFailPoint` with `failCommand`), as `--setParameter enableTestCommands=1` does. */
  enableTestCommands?: boolean;
  /**
   * Called once the server has stopped because its journal could not be written (ENOSPC, EIO...):
   * serving on would answer from memory that is not on disk. The failed write got an error.
   */
  onFatal?: (err: Error) => void;
  /** The replica set this server is the one member of (default `rs0`). */
  replSetName?: string;
  /** How many changes the oplog keeps for change streams to resume from (default 10 000). */
  oplogEntries?: number;
  /**
   * A cursor left unread this long is closed (default 600 000 ms, mongod's `cursorTimeoutMillis`);
   * `noCursorTimeout` cursors are kept. Idle cursors are looked for every 4 s (or every
   * `cursorTimeoutMs` when shorter), as mongod's cursor monitor does.
   */
  cursorTimeoutMs?: number;
  /** How often expired documents of TTL indexes are deleted (default 60 000 ms, as mongod). */
  ttlMonitorIntervalMs?: number;
  /**
   * How long the point in time of snapshot reads (`readConcern: { level: 'snapshot' }` outside
   * transactions, what `embedded-mongo dump` reads at) is kept without a read at it (default
   * 300 000 ms, mongod's `minSnapshotHistoryWindowInSeconds`).
   */
  snapshotIdleMs?: number;
  /**
   * After a start from a data directory, documents left undecoded and indexes left unbuilt (see
   * Engine.warmUp) are decoded and built in the background, a slice per event-loop turn, from
   * the moment the server listens (default true); a command needing one first builds it at once.
   */
  warmUp?: boolean;
  /** Called when that background work is done, with how long it took since listening. */
  onWarm?: (info: { ms: number; cpuMs: number }) => void;
}

/** OP_MSG flag: the client accepts a stream of replies (the driver's streaming hello). */
const EXHAUST_ALLOWED = 1 << 16;

type Reply = Buffer | undefined | Promise<Buffer | undefined>;

/** Thrown by a fail point to drop the connection without a reply. */
class CloseConnection extends Error {}

const HELLO_NAMES = new Set(['hello', 'ismaster', 'isMaster']);

export interface RunningServer {
  uri: string;
  port: number;
  host: string;
  engine: Engine;
  stop(): Promise<void>;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const engine = new Engine({ ...options, onJournalFailure: (e) => fail(e) });
  const cursors: CommandContext['cursors'] = new Map();
  let cursorTimeoutMs = options.cursorTimeoutMs ?? CURSOR_TIMEOUT_MS;
  const monitorCursors = () => {
    const timer = setInterval(
      () => reapIdleCursors(cursors, cursorTimeoutMs),
      Math.max(10, Math.min(4000, cursorTimeoutMs)),
    );
    timer.unref();
    return timer;
  };
  let cursorMonitor = monitorCursors();
  const sessions: NonNullable<CommandContext['sessions']> = new Map();
  let cursorSeq = 0;
  let connectionSeq = 0;
  let responseSeq = 0;
  const sockets = new Set<net.Socket>();
  const report = options.onError ?? (() => {});
  const failPoints = options.enableTestCommands ? new FailPoints() : undefined;
  const replset = new ReplicaSet(engine, {
    me: '', // known once listening
    replSetName: options.replSetName,
    ttlMonitorIntervalMs: options.ttlMonitorIntervalMs,
    oplogEntries: options.oplogEntries,
    snapshotIdleMs: options.snapshotIdleMs,
  });
  const state = new ServerState(
    () => replset.me,
    () => ({ ...replset.helloFields(), rbid: 1 }),
    (name, value) => {
      if (name === 'ttlMonitorSleepSecs') replset.ttl.setInterval(Number(value) * 1000);
      else if (name === 'ttlMonitorEnabled') replset.ttl.enabled = value === true;
      else if (name === 'cursorTimeoutMillis') {
        cursorTimeoutMs = Number(value);
        clearInterval(cursorMonitor);
        cursorMonitor = monitorCursors();
      }
    },
    {
      enableTestCommands: options.enableTestCommands === true,
      ttlMonitorSleepSecs: (options.ttlMonitorIntervalMs ?? 60_000) / 1000,
      cursorTimeoutMillis: cursorTimeoutMs,
    },
  );

  const server = net.createServer((socket) => {
    sockets.add(socket);
    state.connections.current++;
    state.connections.totalCreated++;
    commandStats?.add('connection opened');
    socket.setNoDelay(true);
    const ctx: CommandContext = {
      engine,
      cursors,
      sessions,
      nextCursorId: () => ++cursorSeq,
      connectionId: ++connectionSeq,
      get cursorTimeoutMs() {
        return cursorTimeoutMs;
      },
      failPoints,
      server: state,
    };
    // Chunks are kept apart until a whole message is there, so a large message arriving in
    // many packets is copied once, not once per packet.
    let chunks: Buffer[] = [];
    let bufferedBytes = 0;
    let needed = 4;
    // Replies that wait (a tailing getMore, an awaitable hello) keep their order: while one is
    // pending, later replies queue behind it.
    let queue: Promise<void> | undefined;
    let queued = 0;
    const send = (reply: Reply, message?: Buffer): void => {
      if (!queue && !(reply instanceof Promise)) {
        if (reply && !socket.destroyed) socket.write(reply);
        return;
      }
      queued++;
      queue = (queue ?? Promise.resolve())
        .then(() => reply)
        .then((buf) => {
          if (!buf || socket.destroyed) return;
          socket.write(buf);
          // A streamed hello: the next reply follows without a request (moreToCome).
          if (message && buf.readUInt32LE(16) & FLAG_MORE_TO_COME)
            send(handle(message, ctx), message);
        })
        .catch((e: unknown) => {
          report(e as Error);
          socket.destroy();
        })
        .finally(() => {
          if (--queued === 0) queue = undefined;
        });
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      bufferedBytes += chunk.length;
      if (bufferedBytes < needed) return;
      let buffered = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      const replies: Buffer[] = [];
      const flush = () => {
        if (replies.length) send(replies.length === 1 ? replies[0] : Buffer.concat(replies));
        replies.length = 0;
      };
      try {
        while (buffered.length >= 4) {
          const length = buffered.readInt32LE(0);
          if (length < 16 || length > MAX_MESSAGE_BYTES) {
            throw new ProtocolError(`invalid message length ${length}`);
          }
          if (buffered.length < length) break;
          const message = buffered.subarray(0, length);
          buffered = buffered.subarray(length);
          const reply = handle(message, ctx);
          if (reply instanceof Promise) {
            flush();
            send(reply, Buffer.from(message));
          } else if (reply) replies.push(reply);
        }
        chunks = buffered.length ? [buffered] : [];
        bufferedBytes = buffered.length;
        needed = buffered.length >= 4 ? buffered.readInt32LE(0) : 4;
      } catch (e) {
        if (!(e instanceof CloseConnection)) report(e as Error);
        socket.destroy();
        return;
      } finally {
        if (!socket.destroyed) flush();
      }
    });
    socket.on('error', (e) => report(e));
    socket.on('close', () => {
      sockets.delete(socket);
      state.connections.current--;
    });
  });

  function handle(message: Buffer, ctx: CommandContext): Reply {
    if (failure) throw new CloseConnection('the server is stopping: its journal failed');
    const req = parseMessage(message);
    if (req.kind === 'query') {
      const db = req.collection.split('.')[0] ?? 'admin';
      const cmdName = Object.keys(req.query)[0] ?? '';
      // Only the legacy handshake is served over OP_QUERY, as mongod 7.0 does.
      const legacyHello = ['ismaster', 'isMaster', 'hello'].includes(cmdName);
      if (legacyHello) rememberAppName(req.query, ctx);
      const body = legacyHello
        ? (replset.run({ ...req.query }, db, ctx) as Doc)
        : {
            ok: 0,
            errmsg: 'Unsupported OP_QUERY command: ' + cmdName,
            code: 352,
            codeName: 'UnsupportedOpQueryCommand',
          };
      return encodeReply(++responseSeq, req.header.requestId, body);
    }
    const cmdName = Object.keys(req.body)[0] ?? '';
    state.count(cmdName, req.body);
    if (commandStats) countCommand(cmdName, req.body);
    if (cmdName === 'hello' || cmdName === 'ismaster' || cmdName === 'isMaster')
      rememberAppName(req.body, ctx);
    const action = failPoints?.check(cmdName, ctx.appName) ?? { kind: 'none' };
    if (action.kind === 'close') {
      engine.commit();
      throw new CloseConnection('closed by the failCommand fail point');
    }
    const result =
      action.kind === 'error'
        ? replset.failed(req.body, action.reply, action.point === 'failCommand')
        : replset.run(req.body, 'admin', ctx);
    if (result instanceof Promise) {
      // Waiting replies (see ReplicaSet.run) write nothing: there is nothing to commit.
      const streamed = (req.flags & EXHAUST_ALLOWED) !== 0 && HELLO_NAMES.has(cmdName);
      return result.then((body) => {
        const buf = encodeMsg(++responseSeq, req.header.requestId, body);
        if (streamed) buf.writeUInt32LE(FLAG_MORE_TO_COME, 16);
        return buf;
      });
    }
    let body = result;
    if (action.kind === 'writeConcernError' && body.ok === 1)
      body = replset.labelled(req.body, { ...body, writeConcernError: action.error });
    try {
      engine.commit();
    } catch (e) {
      if (!(e instanceof JournalWriteError)) throw e;
      // Not acknowledged: the change is only in memory, which fail() is about to discard.
      body = { ok: 0, errmsg: e.message, code: 1, codeName: 'InternalError' };
    }
    if (req.flags & FLAG_MORE_TO_COME) return undefined;
    return encodeMsg(++responseSeq, req.header.requestId, body);
  }

  function countCommand(cmdName: string, body: Doc): void {
    const target = body[cmdName];
    let key = typeof target === 'string' ? `${cmdName} ${target}` : cmdName;
    if (cmdName === 'getMore') {
      key += ` ${String(body.collection)}`;
      if (replset.streams.has(Number(target))) key += ' stream';
    } else if (cmdName === 'aggregate' && Array.isArray(body.pipeline)) {
      const first = body.pipeline[0] as Doc | undefined;
      if (first && '$changeStream' in first) key += ' stream';
    }
    if (body.autocommit === false) key += body.startTransaction ? ' txn-start' : ' txn';
    commandStats?.add(key);
  }

  function rememberAppName(hello: Record<string, unknown>, ctx: CommandContext): void {
    const client = hello.client as { application?: { name?: unknown } } | undefined;
    const name = client?.application?.name;
    if (typeof name === 'string') ctx.appName = name;
  }

  let failure: Error | undefined;
  /** The journal failed: stop serving (after the replies already written go out), then tell. */
  function fail(e: Error): void {
    if (failure) return;
    failure = e;
    report(e);
    setImmediate(() => {
      for (const s of sockets) s.end();
      setTimeout(() => {
        for (const s of sockets) s.destroy();
      }, 500).unref();
      clearInterval(cursorMonitor);
      server.close(() => {
        engine.close();
        options.onFatal?.(e);
      });
    });
  }

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 27017, host, () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  replset.me = `${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;
  // A journal far longer than the state it holds is compacted now, in the background.
  engine.compactIfDue();

  let stopped = false;
  let warming: NodeJS.Immediate | undefined;
  if (options.warmUp !== false) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const step = () => {
      warming = undefined;
      if (stopped || failure) return;
      if (engine.warmUp()) {
        warming = setImmediate(step);
        return;
      }
      const used = process.cpuUsage(cpu);
      options.onWarm?.({
        ms: performance.now() - started,
        cpuMs: (used.user + used.system) / 1000,
      });
    };
    warming = setImmediate(step);
  }

  return {
    uri: `mongodb://${host}:${port}`,
    port,
    host,
    engine,
    async stop() {
      stopped = true;
      commandStats?.close();
      if (warming) clearImmediate(warming);
      clearInterval(cursorMonitor);
      replset.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!failure) engine.close(); // after a failure, fail() closes it
    },
  };
}
