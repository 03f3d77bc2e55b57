/**
 * The TCP server: frames messages per connection, runs each command against the engine,
 * commits the journal, then replies (OP_REPLY to the legacy handshake, OP_MSG otherwise).
 * A malformed message closes that connection; it never takes the server down.
 */
import net from 'node:net';
import { Engine, type EngineOptions } from './engine';
import { runCommand, type CommandContext } from './commands';
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
}

export interface RunningServer {
  uri: string;
  port: number;
  host: string;
  engine: Engine;
  stop(): Promise<void>;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const engine = new Engine(options);
  const cursors: CommandContext['cursors'] = new Map();
  let cursorSeq = 0;
  let connectionSeq = 0;
  let responseSeq = 0;
  const sockets = new Set<net.Socket>();
  const report = options.onError ?? (() => {});

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    const ctx: CommandContext = {
      engine,
      cursors,
      nextCursorId: () => ++cursorSeq,
      connectionId: ++connectionSeq,
    };
    let buffered: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
      const replies: Buffer[] = [];
      try {
        while (buffered.length >= 4) {
          const length = buffered.readInt32LE(0);
          if (length < 16 || length > MAX_MESSAGE_BYTES)
            throw new ProtocolError(`invalid message length ${length}`);
          if (buffered.length < length) break;
          const message = buffered.subarray(0, length);
          buffered = buffered.subarray(length);
          const reply = handle(message, ctx);
          if (reply) replies.push(reply);
        }
      } catch (e) {
        report(e as Error);
        socket.destroy();
        return;
      } finally {
        if (replies.length)
          socket.write(replies.length === 1 ? (replies[0] as Buffer) : Buffer.concat(replies));
      }
    });
    socket.on('error', (e) => report(e));
    socket.on('close', () => sockets.delete(socket));
  });

  function handle(message: Buffer, ctx: CommandContext): Buffer | undefined {
    const req = parseMessage(message);
    if (req.kind === 'query') {
      const db = req.collection.split('.')[0] ?? 'admin';
      const cmdName = Object.keys(req.query)[0] ?? '';
      // Only the legacy handshake is served over OP_QUERY, as mongod 7.0 does.
      const body = ['ismaster', 'isMaster', 'hello'].includes(cmdName)
        ? runCommand({ ...req.query }, db, ctx)
        : {
            ok: 0,
            errmsg: 'Unsupported OP_QUERY command: ' + cmdName,
            code: 352,
            codeName: 'UnsupportedOpQueryCommand',
          };
      return encodeReply(++responseSeq, req.header.requestId, body);
    }
    const body = runCommand(req.body, 'admin', ctx);
    engine.commit();
    if (req.flags & FLAG_MORE_TO_COME) return undefined;
    return encodeMsg(++responseSeq, req.header.requestId, body);
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
      engine.close();
    },
  };
}
