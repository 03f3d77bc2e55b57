import { STREAM_EVENTS } from '@campus/contracts';

/** `off`: no stream (signed out). `connecting`: first attempt. `open`: events flow. `down`: waiting to retry. */
export type StreamStatus = 'off' | 'connecting' | 'open' | 'down';

/** One event of the stream, as the EventSource gave it. */
export interface StreamMessage {
  /** Its name (`notification`, `unread`, `posts`, `heartbeat`). */
  event: string;
  data: string;
  /** Its `id:` (notifications only), or the last one seen. */
  id: string;
}

/** The server sends a heartbeat event every 25 s; silence for this long means the connection is dead. */
export const STREAM_SILENCE_MS = 60_000;

/**
 * How long to wait before reconnection attempt `attempt` (0 for the first retry): 1 s doubling to
 * 30 s, spread by ±20 % so a restarted API is not hit by every tab at the same instant.
 */
export function streamRetryDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 1_000 * 2 ** attempt);
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** A connection that stayed open this long was healthy: the next failure starts the back-off afresh. */
const HEALTHY_CONNECTION_MS = 30_000;

type EventSourceClass = {
  new (url: string, init?: EventSourceInit): EventSource;
  readonly CLOSED: number;
};

export interface StreamConnectionOptions {
  /**
   * The stream's URL for a new connection, given the id of the last event seen (a new
   * EventSource cannot send `Last-Event-ID`; the API reads `?lastEventId=` instead). Asked again
   * for every new connection: the followed tabs may have changed.
   */
  url: (lastEventId: string) => string;
  onEvent: (event: StreamMessage) => void;
  onStatus: (status: StreamStatus) => void;
  /**
   * The API refused the stream (an EventSource gives no status: a 401 of an access cookie that
   * ran out, or of a session that ended, looks like any refusal): whether the session still
   * holds, renewing it if need be. True: connect again; false: the session is over, stop.
   */
  checkSession: () => Promise<boolean>;
  /** Send the session cookie to the API's origin (it is another origin of the same site). */
  withCredentials?: boolean;
  EventSource?: EventSourceClass;
  retryDelay?: (attempt: number) => number;
  silenceMs?: number;
}

export interface StreamConnection {
  /** Drops the current connection (if any) and connects again now, from the last event seen. */
  reconnect: () => void;
  /** Ends the connection for good. */
  close: () => void;
}

/**
 * Opens `GET /api/stream` with a plain `EventSource`, authenticated by the session cookie (no
 * token in a header or the URL). The browser reconnects by itself after a dropped connection,
 * sending `Last-Event-ID` so the server replays what was missed. When the API refuses the stream
 * (the EventSource closes for good) the session is checked, and renewed, before a new connection
 * with back-off; when it falls silent past the heartbeats it is replaced.
 */
export function connectStream(options: StreamConnectionOptions): StreamConnection {
  const {
    url,
    onEvent,
    onStatus,
    checkSession,
    withCredentials = true,
    EventSource: Source = globalThis.EventSource,
    retryDelay = streamRetryDelay,
    silenceMs = STREAM_SILENCE_MS,
  } = options;
  let closed = false;
  let attempt = 0;
  let lastEventId = '';
  let current: EventSource | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let silenceTimer: ReturnType<typeof setTimeout> | undefined;
  let status: StreamStatus | null = null;
  let openedAt = 0;

  const setStatus = (next: StreamStatus) => {
    if (status === next) return;
    status = next;
    onStatus(next);
  };

  const drop = () => {
    clearTimeout(retryTimer);
    clearTimeout(silenceTimer);
    current?.close();
    current = null;
  };

  const close = () => {
    closed = true;
    drop();
    setStatus('off');
  };

  /** A new connection after the back-off (the session checked first when `check`). */
  const retry = (check: boolean) => {
    drop();
    if (openedAt && Date.now() - openedAt >= HEALTHY_CONNECTION_MS) attempt = 0;
    openedAt = 0;
    setStatus('down');
    const delay = retryDelay(attempt);
    attempt += 1;
    retryTimer = setTimeout(() => {
      if (closed) return;
      if (!check) return open();
      void checkSession().then(
        (holds) => {
          if (closed) return;
          if (holds) open();
          else close();
        },
        () => !closed && retry(true),
      );
    }, delay);
  };

  function open() {
    if (closed) return;
    // No EventSource (no browser today lacks it; jsdom does): no stream, the counts are polled.
    if (!Source) return setStatus('down');
    const source = new Source(url(lastEventId), { withCredentials });
    current = source;
    const isCurrent = () => !closed && current === source;
    const watchSilence = () => {
      clearTimeout(silenceTimer);
      silenceTimer = setTimeout(() => isCurrent() && retry(false), silenceMs);
    };
    if (status !== 'down') setStatus('connecting');
    source.onopen = () => {
      if (!isCurrent()) return;
      openedAt = Date.now();
      setStatus('open');
      watchSilence();
    };
    source.onerror = () => {
      if (!isCurrent()) return;
      // CONNECTING: the browser is reconnecting by itself (with Last-Event-ID). CLOSED: the API
      // refused the stream (a 401 or 403 among others): the session decides what follows.
      if (source.readyState === Source.CLOSED) retry(true);
      else setStatus('down');
    };
    for (const name of STREAM_EVENTS) {
      source.addEventListener(name, (message) => {
        if (!isCurrent()) return;
        const { data, lastEventId: id } = message as MessageEvent<string>;
        if (id) lastEventId = id;
        watchSilence();
        if (status !== 'open') {
          openedAt ||= Date.now();
          setStatus('open');
        }
        onEvent({ event: name, data, id });
      });
    }
  }

  open();
  return {
    reconnect() {
      if (closed) return;
      drop();
      open();
    },
    close,
  };
}
