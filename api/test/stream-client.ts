/**
 * A client of `GET /api/stream` for tests and benchmarks, as the kit reads it: `fetch` with the
 * bearer token in a header and a streaming body, parsed as server-sent events.
 */
export interface StreamEvent {
  event: string;
  id?: string;
  data: unknown;
}

export interface OpenedStream {
  status: number;
  headers: Headers;
  /** Every event received so far, in order. */
  events: StreamEvent[];
  /** Comment lines received (`: heartbeat`). */
  comments: string[];
  /** Resolves when the server ends the stream (or the client closes it). */
  ended: Promise<void>;
  isEnded(): boolean;
  /** The first event (from `from` on) that `match` accepts, waiting for it if need be. */
  next(match: (e: StreamEvent) => boolean, from?: number, timeoutMs?: number): Promise<StreamEvent>;
  close(): void;
}

export async function openStream(
  baseUrl: string,
  auth: string | undefined,
  options: { query?: string; lastEventId?: string | number; headers?: Record<string, string> } = {},
): Promise<OpenedStream> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/api/stream${options.query ? `?${options.query}` : ''}`, {
    headers: {
      ...(auth ? { Authorization: auth } : {}),
      ...(options.lastEventId !== undefined
        ? { 'Last-Event-ID': String(options.lastEventId) }
        : {}),
      ...options.headers,
    },
    signal: abort.signal,
  });
  const events: StreamEvent[] = [];
  const comments: string[] = [];
  let waiters: Array<() => void> = [];
  let ended = false;
  const wake = () => {
    const current = waiters;
    waiters = [];
    for (const w of current) w();
  };
  const parse = (block: string) => {
    let event = 'message';
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) comments.push(line.slice(1).trim());
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length) events.push({ event, id, data: JSON.parse(data.join('\n')) });
  };
  const reading = (async () => {
    if (!response.body || response.status !== 200) return;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
        wake();
      }
    } catch {
      // aborted by the client
    }
  })().finally(() => {
    ended = true;
    wake();
  });
  return {
    status: response.status,
    headers: response.headers,
    events,
    comments,
    ended: reading,
    isEnded: () => ended,
    async next(match, from = 0, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.slice(from).find(match);
        if (found) return found;
        if (ended) throw new Error(`stream ended without the event; got ${JSON.stringify(events)}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no such event; got ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () => abort.abort(),
  };
}
