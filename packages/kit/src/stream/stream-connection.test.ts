import { connectStream, streamRetryDelay, type StreamStatus } from './stream-connection';
import type { SseEvent } from './sse-parser';

/** A response body the test writes to, chunk by chunk, and ends or breaks when it wants. */
class FakeBody {
  private chunks: Uint8Array[] = [];
  private waiting: ((result: ReadableStreamReadResult<Uint8Array>) => void) | null = null;
  private failWaiting: ((error: Error) => void) | null = null;
  private ended = false;
  cancelled = false;

  constructor(signal: AbortSignal) {
    signal.addEventListener('abort', () => this.fail(new DOMException('Aborted', 'AbortError')));
  }

  write(text: string) {
    const chunk = new TextEncoder().encode(text);
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ done: false, value: chunk });
    } else this.chunks.push(chunk);
  }

  end() {
    this.ended = true;
    this.waiting?.({ done: true, value: undefined });
    this.waiting = null;
  }

  fail(error: Error) {
    this.failWaiting?.(error);
    this.waiting = null;
    this.failWaiting = null;
  }

  getReader() {
    return {
      read: () =>
        new Promise<ReadableStreamReadResult<Uint8Array>>((resolve, reject) => {
          const next = this.chunks.shift();
          if (next) resolve({ done: false, value: next });
          else if (this.ended) resolve({ done: true, value: undefined });
          else {
            this.waiting = resolve;
            this.failWaiting = reject;
          }
        }),
      cancel: async () => {
        this.cancelled = true;
      },
    };
  }
}

interface Attempt {
  url: string;
  headers: Record<string, string>;
  body: FakeBody;
}

/** A fake fetch: each call is one attempt; `answer` decides its status (200 streams `body`). */
function fakeServer(
  answer: (attempt: number) => { status: number; text?: string } = () => ({ status: 200 }),
) {
  const attempts: Attempt[] = [];
  const fetchMock = jest.fn(async (url: string, init: RequestInit) => {
    const body = new FakeBody(init.signal as AbortSignal);
    attempts.push({ url, headers: init.headers as Record<string, string>, body });
    const { status, text = '' } = answer(attempts.length - 1);
    if (init.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
    return {
      ok: status >= 200 && status < 300,
      status,
      body: status === 200 ? body : null,
      text: async () => text,
    } as unknown as Response;
  });
  return { attempts, fetch: fetchMock as unknown as typeof fetch, fetchMock };
}

function nth<T>(items: T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`No item ${index}`);
  return item;
}

/** Lets pending promises (the fake fetch, reads) settle. */
const settle = async () => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
};

function connect(
  server: ReturnType<typeof fakeServer>,
  token: () => string | null = () => 'tok-1',
) {
  const events: SseEvent[] = [];
  const statuses: StreamStatus[] = [];
  const refused: Array<[number, string]> = [];
  const connection = connectStream({
    url: () => 'http://api.test/api/stream?tabs=for-you:3',
    token,
    fetch: server.fetch,
    onEvent: (event) => events.push(event),
    onStatus: (status) => statuses.push(status),
    onRefused: (status, body) => refused.push([status, body]),
    retryDelay: (attempt) => 1_000 * 2 ** attempt,
    silenceMs: 60_000,
  });
  return { connection, events, statuses, refused };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('connectStream', () => {
  it('sends the token in the Authorization header, never in the URL, and hands on each event', async () => {
    const server = fakeServer();
    const { events, statuses, connection } = connect(server);
    await settle();
    expect(server.attempts).toHaveLength(1);
    const { url, headers, body } = nth(server.attempts, 0);
    expect(url).not.toContain('tok-1');
    expect(headers).toEqual({ Accept: 'text/event-stream', Authorization: 'Bearer tok-1' });
    body.write('event: unread\ndata: {"count":2}\n\n: heartbeat\n\nid: 12\nevent: notif');
    body.write('ication\ndata: {"id":12}\n\n');
    await settle();
    expect(events).toEqual([
      { event: 'unread', data: '{"count":2}', id: '' },
      { event: 'notification', data: '{"id":12}', id: '12' },
    ]);
    expect(statuses).toEqual(['connecting', 'open']);
    connection.close();
    expect(statuses.at(-1)).toBe('off');
  });

  it('reconnects with growing waits after failures, resuming from the last event id', async () => {
    const server = fakeServer((attempt) => ({ status: attempt === 1 ? 503 : 200 }));
    const { statuses, connection } = connect(server);
    await settle();
    nth(server.attempts, 0).body.write('id: 40\nevent: notification\ndata: {}\n\n');
    await settle();
    nth(server.attempts, 0).body.end(); // the server (or a proxy) closed it
    await settle();
    expect(statuses.at(-1)).toBe('down');

    await jest.advanceTimersByTimeAsync(999);
    expect(server.attempts).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(server.attempts).toHaveLength(2);
    expect(nth(server.attempts, 1).headers['Last-Event-ID']).toBe('40');

    // the 503 of the second attempt doubles the wait
    await settle();
    await jest.advanceTimersByTimeAsync(1_999);
    expect(server.attempts).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(server.attempts).toHaveLength(3);
    expect(nth(server.attempts, 2).headers['Last-Event-ID']).toBe('40');
    await settle();
    expect(statuses.at(-1)).toBe('open');
    connection.close();
  });

  it('stops for good when the API refuses the token, and says how', async () => {
    const server = fakeServer(() => ({ status: 401, text: '{"message":"Unauthorized"}' }));
    const { statuses, refused } = connect(server);
    await settle();
    expect(refused).toEqual([[401, '{"message":"Unauthorized"}']]);
    expect(statuses.at(-1)).toBe('off');
    await jest.advanceTimersByTimeAsync(120_000);
    expect(server.attempts).toHaveLength(1);
  });

  it('drops a connection that falls silent and opens another', async () => {
    const server = fakeServer();
    const { connection } = connect(server);
    await settle();
    await jest.advanceTimersByTimeAsync(59_000);
    nth(server.attempts, 0).body.write(': heartbeat\n\n'); // alive: the silence clock starts again
    await jest.advanceTimersByTimeAsync(59_000);
    expect(server.attempts).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1_000 + 1_000);
    expect(server.attempts).toHaveLength(2);
    expect(nth(server.attempts, 0).body.cancelled).toBe(true);
    connection.close();
  });

  it('reconnect() replaces the connection at once; the old one delivers nothing more', async () => {
    const server = fakeServer();
    const { events, connection } = connect(server);
    await settle();
    connection.reconnect();
    await settle();
    expect(server.attempts).toHaveLength(2);
    nth(server.attempts, 0).body.write('data: stale\n\n');
    nth(server.attempts, 1).body.write('data: fresh\n\n');
    await settle();
    expect(events.map((event) => event.data)).toEqual(['fresh']);
    connection.close();
  });

  it('does not connect without a token, and close() stops pending retries', async () => {
    const none = fakeServer();
    connect(none, () => null);
    await settle();
    expect(none.attempts).toHaveLength(0);

    const server = fakeServer(() => ({ status: 500 }));
    const { connection } = connect(server);
    await settle();
    connection.close();
    await jest.advanceTimersByTimeAsync(120_000);
    expect(server.attempts).toHaveLength(1);
  });
});

describe('streamRetryDelay', () => {
  it('doubles from 1 s to at most 30 s, spread by ±20 %', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((attempt) => streamRetryDelay(attempt, () => 0.5))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
    expect(streamRetryDelay(0, () => 0)).toBe(800);
    expect(streamRetryDelay(0, () => 1)).toBe(1_200);
  });
});
