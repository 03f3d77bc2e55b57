import { FakeEventSource } from '@campus/kit/testing';
import {
  connectStream,
  streamRetryDelay,
  type StreamMessage,
  type StreamStatus,
} from './stream-connection';

/** Lets pending promises (the session check) settle. */
const settle = async () => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
};

function connect(checkSession: () => Promise<boolean> = async () => true) {
  const events: StreamMessage[] = [];
  const statuses: StreamStatus[] = [];
  const checks: number[] = [];
  const connection = connectStream({
    url: (lastEventId) =>
      `http://api.test/api/stream?tabs=for-you:3${lastEventId ? `&lastEventId=${lastEventId}` : ''}`,
    EventSource: FakeEventSource as unknown as typeof EventSource,
    onEvent: (event) => events.push(event),
    onStatus: (status) => statuses.push(status),
    checkSession: () => {
      checks.push(Date.now());
      return checkSession();
    },
    retryDelay: (attempt) => 1_000 * 2 ** attempt,
    silenceMs: 60_000,
  });
  return { connection, events, statuses, checks };
}

const sources = () => FakeEventSource.instances;

beforeEach(() => {
  jest.useFakeTimers();
  FakeEventSource.instances = [];
});
afterEach(() => jest.useRealTimers());

describe('connectStream', () => {
  it('opens a plain EventSource with credentials (the session cookie), no token anywhere, and hands on each event', () => {
    const { events, statuses, connection } = connect();
    expect(sources()).toHaveLength(1);
    const source = FakeEventSource.latest();
    expect(source.url).toBe('http://api.test/api/stream?tabs=for-you:3');
    expect(source.init).toEqual({ withCredentials: true });
    source.open();
    source.emit('unread', { count: 2 });
    source.emit('heartbeat', {});
    source.emit('notification', { id: 12 }, '12');
    expect(events).toEqual([
      { event: 'unread', data: '{"count":2}', id: '' },
      { event: 'heartbeat', data: '{}', id: '' },
      { event: 'notification', data: '{"id":12}', id: '12' },
    ]);
    expect(statuses).toEqual(['connecting', 'open']);
    connection.close();
    expect(source.closed).toBe(true);
    expect(statuses.at(-1)).toBe('off');
  });

  it('leaves a dropped connection to the browser, which reconnects by itself', async () => {
    const { statuses, checks, connection } = connect();
    const source = FakeEventSource.latest();
    source.open();
    source.fail(false); // CONNECTING: the browser retries with Last-Event-ID
    expect(statuses.at(-1)).toBe('down');
    await jest.advanceTimersByTimeAsync(10_000);
    expect(sources()).toHaveLength(1);
    expect(checks).toHaveLength(0);
    source.open();
    expect(statuses.at(-1)).toBe('open');
    connection.close();
  });

  it('when the API refuses the stream, checks (and renews) the session, then opens a new one from the last event, with growing waits', async () => {
    let holds = true;
    const { statuses, checks, connection } = connect(async () => holds);
    FakeEventSource.latest().open();
    FakeEventSource.latest().emit('notification', { id: 40 }, '40');
    FakeEventSource.latest().fail(true); // CLOSED: a 401 of an access cookie that ran out
    expect(statuses.at(-1)).toBe('down');
    await jest.advanceTimersByTimeAsync(999);
    expect(checks).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    await settle();
    expect(checks).toHaveLength(1);
    expect(sources()).toHaveLength(2);
    expect(FakeEventSource.latest().url).toContain('lastEventId=40');

    // refused again: the wait doubles
    FakeEventSource.latest().fail(true);
    await jest.advanceTimersByTimeAsync(1_999);
    expect(checks).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    await settle();
    expect(sources()).toHaveLength(3);

    // the session is over (the check signed the member out): no more connections
    holds = false;
    FakeEventSource.latest().fail(true);
    await jest.advanceTimersByTimeAsync(4_000);
    await settle();
    expect(sources()).toHaveLength(3);
    expect(statuses.at(-1)).toBe('off');
    await jest.advanceTimersByTimeAsync(120_000);
    expect(sources()).toHaveLength(3);
    connection.close();
  });

  it('drops a connection that falls silent and opens another', async () => {
    const { connection } = connect();
    FakeEventSource.latest().open();
    await jest.advanceTimersByTimeAsync(59_000);
    FakeEventSource.latest().emit('heartbeat', {}); // alive: the silence clock starts again
    await jest.advanceTimersByTimeAsync(59_000);
    expect(sources()).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1_000 + 1_000);
    expect(sources()).toHaveLength(2);
    expect(sources()[0]!.closed).toBe(true);
    connection.close();
  });

  it('reconnect() replaces the connection at once; the old one delivers nothing more', () => {
    const { events, connection } = connect();
    connection.reconnect();
    expect(sources()).toHaveLength(2);
    expect(sources()[0]!.closed).toBe(true);
    sources()[0]!.emit('unread', 'stale');
    sources()[1]!.emit('unread', 'fresh');
    expect(events.map((event) => event.data)).toEqual(['fresh']);
    connection.close();
  });

  it('close() stops pending retries', async () => {
    const { connection, checks } = connect();
    FakeEventSource.latest().fail(true);
    connection.close();
    await jest.advanceTimersByTimeAsync(120_000);
    expect(checks).toHaveLength(0);
    expect(sources()).toHaveLength(1);
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
