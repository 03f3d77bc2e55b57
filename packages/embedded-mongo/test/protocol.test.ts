import net from 'node:net';
import { serialize, deserialize } from 'bson';
import { MongoClient } from 'mongodb';
import { start, type RunningServer } from '../src';

let server: RunningServer;
beforeAll(async () => {
  server = await start({ port: 0 });
});
afterAll(async () => {
  await server.stop();
});

function opMsg(body: object, flags = 0, requestId = 1): Buffer {
  const doc = serialize(body);
  const head = Buffer.alloc(21);
  head.writeInt32LE(21 + doc.length, 0);
  head.writeInt32LE(requestId, 4);
  head.writeInt32LE(0, 8);
  head.writeInt32LE(2013, 12);
  head.writeUInt32LE(flags, 16);
  head.writeUInt8(0, 20);
  return Buffer.concat([head, doc]);
}

/** Sends raw bytes; resolves with the reply body, or 'closed' / 'silent' (no reply within ms). */
function exchange(bytes: Buffer, ms = 300): Promise<Record<string, unknown> | 'closed' | 'silent'> {
  return new Promise((resolve) => {
    const s = net.connect(server.port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => {
      s.destroy();
      resolve('silent');
    }, ms);
    s.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length >= 4 && buf.length >= buf.readInt32LE(0)) {
        clearTimeout(timer);
        s.destroy();
        resolve(deserialize(buf.subarray(21)) as Record<string, unknown>);
      }
    });
    s.on('close', () => {
      clearTimeout(timer);
      resolve('closed');
    });
    s.on('error', () => undefined);
    s.write(bytes);
  });
}

async function stillServes(): Promise<void> {
  const reply = await exchange(opMsg({ ping: 1, $db: 'admin' }));
  expect(reply).toMatchObject({ ok: 1 });
}

test('when the driver connects, then the legacy handshake and OP_MSG commands work', async () => {
  const client = await MongoClient.connect(server.uri);
  const info = await client.db('admin').command({ buildInfo: 1 });
  expect(info.version).toBe('7.0.0');
  const hello = await client.db('admin').command({ hello: 1 });
  expect(hello).toMatchObject({ isWritablePrimary: true, logicalSessionTimeoutMinutes: 30 });
  expect(hello.maxWireVersion).toBeGreaterThanOrEqual(9);
  await client.close();
});

test('when a command is unknown, then the reply is CommandNotFound (59)', async () => {
  expect(await exchange(opMsg({ frobnicate: 1, $db: 'x' }))).toMatchObject({
    ok: 0,
    code: 59,
    codeName: 'CommandNotFound',
  });
});

test('when a request has moreToCome, then it is executed and gets no reply', async () => {
  expect(await exchange(opMsg({ insert: 'quiet', documents: [{ _id: 1 }], $db: 'p' }, 2))).toBe(
    'silent',
  );
  const found = await exchange(opMsg({ find: 'quiet', filter: {}, $db: 'p' }));
  expect(found).toMatchObject({ ok: 1, cursor: { firstBatch: [{ _id: 1 }] } });
});

test.each([
  ['a length below the header size', Buffer.from([8, 0, 0, 0, 1, 2, 3, 4])],
  [
    'a length above the maximum',
    (() => {
      const b = Buffer.alloc(16);
      b.writeInt32LE(0x7fffffff, 0);
      return b;
    })(),
  ],
  [
    'an unknown opcode',
    (() => {
      const b = Buffer.alloc(16);
      b.writeInt32LE(16, 0);
      b.writeInt32LE(9999, 12);
      return b;
    })(),
  ],
  [
    'a truncated BSON body',
    (() => {
      const m = opMsg({ ping: 1 });
      m.writeInt32LE(1000, 21);
      return m;
    })(),
  ],
  [
    'an unknown section kind',
    (() => {
      const m = opMsg({ ping: 1 });
      m.writeUInt8(7, 20);
      return m;
    })(),
  ],
])(
  'when a message has %s, then the connection closes and the server keeps serving',
  async (_name, bytes) => {
    expect(await exchange(bytes)).toBe('closed');
    await stillServes();
  },
);

test('when a message arrives in pieces, then it is assembled before parsing', async () => {
  const msg = opMsg({ ping: 1, $db: 'admin' });
  const reply = await new Promise<Record<string, unknown>>((resolve) => {
    const s = net.connect(server.port, '127.0.0.1', () => {
      s.write(msg.subarray(0, 3));
      setTimeout(() => s.write(msg.subarray(3, 25)), 20);
      setTimeout(() => s.write(msg.subarray(25)), 40);
    });
    s.on('data', (d) => {
      s.destroy();
      resolve(deserialize(d.subarray(21)) as Record<string, unknown>);
    });
  });
  expect(reply).toMatchObject({ ok: 1 });
});

test('when a message is incomplete and the client hangs up, then nothing breaks', async () => {
  const msg = opMsg({ ping: 1, $db: 'admin' });
  await new Promise<void>((resolve) => {
    const s = net.connect(server.port, '127.0.0.1', () => {
      s.end(msg.subarray(0, 10));
      resolve();
    });
  });
  await stillServes();
});
