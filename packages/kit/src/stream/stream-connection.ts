import { createSseParser, type SseEvent } from './sse-parser';

/** `off`: no stream (signed out). `connecting`: first attempt. `open`: events flow. `down`: waiting to retry. */
export type StreamStatus = 'off' | 'connecting' | 'open' | 'down';

/** The server sends a heartbeat every 25 s; silence for this long means the connection is dead. */
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

export interface StreamConnectionOptions {
  /** The stream's URL, asked again for every attempt (the followed tabs may have changed). */
  url: () => string;
  /** The bearer token, asked for every attempt; null ends the connection. */
  token: () => string | null;
  onEvent: (event: SseEvent) => void;
  onStatus: (status: StreamStatus) => void;
  /** The API refused the token (401/403): no reconnection; the session decides what follows. */
  onRefused: (status: number, body: string) => void;
  fetch?: typeof fetch;
  retryDelay?: (attempt: number) => number;
  silenceMs?: number;
}

export interface StreamConnection {
  /** Drops the current connection (if any) and connects again now, with the same Last-Event-ID. */
  reconnect: () => void;
  /** Ends the connection for good. */
  close: () => void;
}

/**
 * Opens `GET /api/stream` with `fetch` and reads its body as it arrives (the token goes in the
 * Authorization header: EventSource could only put it in the URL). When the connection fails,
 * ends or falls silent, it reconnects with back-off, sending `Last-Event-ID` so the server replays
 * what was missed. A 401/403 stops it.
 */
export function connectStream(options: StreamConnectionOptions): StreamConnection {
  const {
    url,
    token,
    onEvent,
    onStatus,
    onRefused,
    fetch: fetchImpl = (...args) => fetch(...args),
    retryDelay = streamRetryDelay,
    silenceMs = STREAM_SILENCE_MS,
  } = options;
  let closed = false;
  let attempt = 0;
  let lastEventId = '';
  let current: AbortController | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let silenceTimer: ReturnType<typeof setTimeout> | undefined;
  let status: StreamStatus | null = null;

  const setStatus = (next: StreamStatus) => {
    if (status === next) return;
    status = next;
    onStatus(next);
  };

  const stopTimers = () => {
    clearTimeout(retryTimer);
    clearTimeout(silenceTimer);
  };

  const close = () => {
    closed = true;
    stopTimers();
    current?.abort();
    current = null;
    setStatus('off');
  };

  function open() {
    if (closed) return;
    const bearer = token();
    if (!bearer) {
      close();
      return;
    }
    const controller = new AbortController();
    current = controller;
    const isCurrent = () => !closed && current === controller;
    const watchSilence = () => {
      clearTimeout(silenceTimer);
      silenceTimer = setTimeout(() => controller.abort(), silenceMs);
    };
    let openedAt = 0;
    if (status !== 'down') setStatus('connecting');

    const headers: Record<string, string> = {
      Accept: 'text/event-stream',
      Authorization: `Bearer ${bearer}`,
    };
    if (lastEventId) headers['Last-Event-ID'] = lastEventId;

    const read = async () => {
      const response = await fetchImpl(url(), {
        headers,
        signal: controller.signal,
        credentials: 'include',
        cache: 'no-store',
      });
      if (response.status === 401 || response.status === 403) {
        const body = await response.text().catch(() => '');
        if (!isCurrent()) return;
        close();
        onRefused(response.status, body);
        return;
      }
      if (!response.ok || !response.body) throw new Error(`The stream answered ${response.status}`);
      const parser = createSseParser({
        onEvent: (event) => {
          if (event.id) lastEventId = event.id;
          if (isCurrent()) onEvent(event);
        },
      });
      openedAt = Date.now();
      setStatus('open');
      watchSilence();
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done || !isCurrent()) break;
          watchSilence();
          parser.push(decoder.decode(value, { stream: true }));
        }
      } finally {
        reader.cancel().catch(() => undefined);
      }
      throw new Error('The stream ended');
    };

    read().catch(() => {
      if (!isCurrent()) return; // closed, or replaced by a newer connection
      clearTimeout(silenceTimer);
      current = null;
      if (openedAt && Date.now() - openedAt >= HEALTHY_CONNECTION_MS) attempt = 0;
      setStatus('down');
      retryTimer = setTimeout(open, retryDelay(attempt));
      attempt += 1;
    });
  }

  open();
  return {
    reconnect() {
      if (closed) return;
      stopTimers();
      const previous = current;
      current = null;
      previous?.abort();
      open();
    },
    close,
  };
}
