/**
 * The TCP server: frames messages per connection, runs each command against the engine,
 * commits the journal, then replies (OP_REPLY to the legacy handshake, OP_MSG otherwise).
 * A malformed message closes that connection; it never takes the server down.
 */
import net from 'node:net';
import { Engine, type EngineOptions } from './engine';
import { runCommand, type CommandContext } from './commands/dispatch';
import { FailPoints } from './failpoints';
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
}

/** Thrown by a fail point to drop the connection without a reply. */
class CloseConnection extends Error {}

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
  const sessions: NonNullable<CommandContext['sessions']> = new Map();
  let cursorSeq = 0;
  let connectionSeq = 0;
  let responseSeq = 0;
  const sockets = new Set<net.Socket>();
  const report = options.onError ?? (() => {});
  const failPoints = options.enableTestCommands ? new FailPoints() : undefined;

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    const ctx: CommandContext = {
      engine,
      cursors,
      sessions,
      nextCursorId: () => ++cursorSeq,
      connectionId: ++connectionSeq,
      failPoints,
    };
    // Chunks are kept apart until a whole message is there, so a large message arriving in
    // many packets is copied once, not once per packet.
    let chunks: Buffer[] = [];
    let bufferedBytes = 0;
    let needed = 4;
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      bufferedBytes += chunk.length;
      if (bufferedBytes < needed) return;
      let buffered = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      const replies: Buffer[] = [];
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
          if (reply) replies.push(reply);
        }
        chunks = buffered.length ? [buffered] : [];
        bufferedBytes = buffered.length;
        needed = buffered.length >= 4 ? buffered.readInt32LE(0) : 4;
      } catch (e) {
        if (!(e instanceof CloseConnection)) report(e as Error);
        socket.destroy();
        return;
      } finally {
        if (replies.length && !socket.destroyed) {
          socket.write(replies.length === 1 ? (replies[0] as Buffer) : Buffer.concat(replies));
        }
      }
    });
    socket.on('error', (e) => report(e));
    socket.on('close', () => sockets.delete(socket));
  });

  function handle(message: Buffer, ctx: CommandContext): Buffer | undefined {
    if (failure) throw new CloseConnection('the server is stopping: its journal failed');
    const req = parseMessage(message);
    if (req.kind === 'query') {
      const db = req.collection.split('.')[0] ?? 'admin';
      const cmdName = Object.keys(req.query)[0] ?? '';
      // Only the legacy handshake is served over OP_QUERY, as mongod 7.0 does.
      const legacyHello = ['ismaster', 'isMaster', 'hello'].includes(cmdName);
      if (legacyHello) rememberAppName(req.query, ctx);
      const body = legacyHello
        ? runCommand({ ...req.query }, db, ctx)
        : {
            ok: 0,
            errmsg: 'Unsupported OP_QUERY command: ' + cmdName,
            code: 352,
            codeName: 'UnsupportedOpQueryCommand',
          };
      return encodeReply(++responseSeq, req.header.requestId, body);
    }
    const cmdName = Object.keys(req.body)[0] ?? '';
    if (cmdName === 'hello' || cmdName === 'ismaster' || cmdName === 'isMaster')
      rememberAppName(req.body, ctx);
    const action = failPoints?.check(cmdName, ctx.appName) ?? { kind: 'none' };
    if (action.kind === 'close') {
      engine.commit();
      throw new CloseConnection('closed by the failCommand fail point');
    }
    let body = action.kind === 'error' ? action.reply : runCommand(req.body, 'admin', ctx);
    if (action.kind === 'writeConcernError' && body.ok === 1)
      body = { ...body, writeConcernError: action.error };
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

  return {
    uri: `mongodb://${host}:${port}`,
    port,
    host,
    engine,
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!failure) engine.close(); // after a failure, fail() closes it
    },
  };
}
