/**
 * A steady stream of HTTP requests: `concurrency` clients, each sending its next request as soon
 * as the last one is answered, until stopped. Every request's outcome is kept (whether it
 * succeeded, its status or error, its latency, and its place in the order requests started), so
 * a test can count the failures around an event (`mark()`: the requests started after it) and a
 * benchmark can print figures. Used by the rolling-restart tests, `npm run bench:reload` and
 * `npm run ops:check`.
 *
 * By default each request opens a connection of its own (`Connection: close`), as the nginx
 * gateway does towards the API (docker/gateway/gateway.conf.template keeps no upstream
 * connections); `keepAlive` makes every client reuse its connection, as a browser does.
 */
import http from 'node:http';

export interface LoadRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface Outcome {
  /** Which request this was in the order they started (0, 1, 2...). */
  seq: number;
  method: string;
  path: string;
  ok: boolean;
  /** The status answered, if any. */
  status?: number;
  /** The network error (ECONNRESET, timeout...), if no status came. */
  error?: string;
  ms: number;
}

export interface SteadyLoad {
  readonly outcomes: readonly Outcome[];
  /** The place of the next request to start: `after(mark)` is what started from then on. */
  mark(): number;
  /** Resolves once `count` more requests have been answered (successfully or not). */
  answered(count: number): Promise<void>;
  /** Stops sending, waits for the requests in flight, and resolves with every outcome. */
  stop(): Promise<Outcome[]>;
}

/** Whether a status counts as served (default: 2xx and 3xx). */
const SERVED = (status: number) => status >= 200 && status < 400;

export function startSteadyLoad(options: {
  /** `http://host:port` */
  url: string;
  concurrency: number;
  /** The request each client sends next (`n` counts every request started). */
  next(n: number): LoadRequest;
  keepAlive?: boolean;
  /** A request not answered within this is a failure (default 30 s). */
  timeoutMs?: number;
  served?: (status: number) => boolean;
}): SteadyLoad {
  const base = new URL(options.url);
  const served = options.served ?? SERVED;
  const agent = options.keepAlive
    ? new http.Agent({ keepAlive: true, maxSockets: options.concurrency })
    : false;
  const outcomes: Outcome[] = [];
  const waiters: { until: number; resolve: () => void }[] = [];
  let started = 0;
  let stopping = false;

  const send = (seq: number, request: LoadRequest) =>
    new Promise<Outcome>((resolve) => {
      const began = performance.now();
      const body = request.body === undefined ? undefined : JSON.stringify(request.body);
      const done = (fields: Pick<Outcome, 'ok' | 'status' | 'error'>) =>
        resolve({
          seq,
          method: request.method,
          path: request.path,
          ms: performance.now() - began,
          ...fields,
        });
      const req = http.request(
        {
          host: base.hostname,
          port: base.port,
          method: request.method,
          path: request.path,
          agent,
          headers: {
            ...request.headers,
            ...(body === undefined
              ? {}
              : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }),
          },
          timeout: options.timeoutMs ?? 30_000,
        },
        (res) => {
          res.resume();
          res.once('end', () => done({ ok: served(res.statusCode!), status: res.statusCode }));
          res.once('error', (err) => done({ ok: false, error: errorName(err) }));
        },
      );
      req.once('timeout', () => req.destroy(new Error('timeout')));
      req.once('error', (err) => done({ ok: false, error: errorName(err) }));
      req.end(body);
    });

  const client = async () => {
    while (!stopping) {
      const seq = started++;
      outcomes.push(await send(seq, options.next(seq)));
      for (const waiter of [...waiters]) {
        if (outcomes.length >= waiter.until) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    }
  };
  const clients = Array.from({ length: options.concurrency }, client);

  return {
    outcomes,
    mark: () => started,
    answered: (count) =>
      new Promise<void>((resolve) => {
        const until = outcomes.length + count;
        if (outcomes.length >= until) resolve();
        else waiters.push({ until, resolve });
      }),
    async stop() {
      stopping = true;
      await Promise.all(clients);
      if (agent) agent.destroy();
      for (const waiter of waiters.splice(0)) waiter.resolve();
      return outcomes;
    },
  };
}

function errorName(err: Error): string {
  return (err as NodeJS.ErrnoException).code ?? err.message;
}

/** The failures among `outcomes`, as `status or error: count` for a failure message. */
export function failureSummary(outcomes: readonly Outcome[]): Record<string, number> {
  const summary: Record<string, number> = {};
  for (const outcome of outcomes) {
    if (outcome.ok) continue;
    const key = `${outcome.method} ${outcome.path.replace(/\d+/g, ':id')}: ${outcome.status ?? outcome.error}`;
    summary[key] = (summary[key] ?? 0) + 1;
  }
  return summary;
}
