import { PassThrough } from 'node:stream';
import { eventually } from '../../../test/eventually';
import { useTestApp } from '../../../test/test-app';
import { createStreamHub } from './create';
import type { StreamHub } from './hub';

const app = useTestApp();
const hubs: StreamHub[] = [];

afterEach(() => {
  for (const hub of hubs.splice(0)) hub.close();
});

function hub(heartbeatMs: number): StreamHub {
  const built = createStreamHub(app.context, { ready: () => Promise.resolve(), heartbeatMs });
  hubs.push(built);
  return built;
}

/** Resolves with what the sink received once `pattern` shows in it. */
function received(sink: PassThrough, pattern: RegExp): Promise<string> {
  let text = '';
  return new Promise((resolve) => {
    sink.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (pattern.test(text)) resolve(text);
    });
  });
}

test('when a stream is quiet, then it gets a heartbeat event on every beat', async () => {
  const ada = await app.createMember();
  const streams = hub(50);
  const sink = new PassThrough();
  const beats = received(sink, /event: unread[\s\S]*(event: heartbeat\ndata: \{\}\n\n[\s\S]*){2}/);
  await streams.open({
    userId: ada.id,
    issuedAt: Date.now(),
    expiresAt: undefined,
    tabs: [],
    lastEventId: undefined,
    sink,
  });
  const text = await beats;
  expect(text.startsWith(': connected\n\n')).toBe(true);
  expect(text).toContain('event: unread\ndata: {"count":0}\n\n');
});

test('when a client reads nothing while events pile up past 1 MiB, then its stream is closed', async () => {
  const ada = await app.createMember();
  const streams = hub(5);
  // A client that reads nothing: every (padded) heartbeat stays buffered.
  const inner = new PassThrough();
  const sink = {
    write: (chunk: string) => inner.write(chunk.padEnd(64 * 1024)),
    end: () => inner.end(),
    get writableLength() {
      return inner.writableLength;
    },
    once: (event: 'close', listener: () => void) => inner.once(event, listener),
  };
  await streams.open({
    userId: ada.id,
    issuedAt: Date.now(),
    expiresAt: undefined,
    tabs: [],
    lastEventId: undefined,
    sink,
  });
  expect(await eventually(() => streams.size === 0)).toBe(true);
  expect(inner.writableEnded).toBe(true);
  // It ended because of the backlog: more than a mebibyte was waiting for the client.
  expect(inner.writableLength).toBeGreaterThan(1 << 20);
});
