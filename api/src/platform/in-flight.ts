/**
 * Requests still being handled. A client that hangs up does not stop its request's handler,
 * which may still have writes to make (a like and its post's count move in two steps), so a
 * shutdown waits for `idle()` as well as for connections to close before the database goes.
 * Once `drain()` is called (a shutdown started), every response closes its connection
 * (`Connection: close`), so a keep-alive client opens a new one for its next request, which
 * another API process takes, instead of sending it to the process that is stopping.
 */
import type { Middleware } from 'koa';

export interface InFlight {
  middleware: Middleware;
  readonly count: number;
  /** Resolves once no request is being handled. */
  idle(): Promise<void>;
  /** From now on, responses close their connection. */
  drain(): void;
}

export function trackInFlight(): InFlight {
  let count = 0;
  let draining = false;
  const waiters: Array<() => void> = [];
  return {
    async middleware(ctx, next) {
      count++;
      try {
        await next();
      } finally {
        // Before Koa writes the response (a response already streaming keeps its headers).
        if (draining && !ctx.headerSent) ctx.set('Connection', 'close');
        count--;
        if (count === 0) for (const resolve of waiters.splice(0)) resolve();
      }
    },
    get count() {
      return count;
    },
    idle() {
      return count === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push(resolve));
    },
    drain() {
      draining = true;
    },
  };
}

/**
 * Single flight: concurrent calls for the same key share one computation (the first caller's);
 * a call after it settled starts another. A failure reaches every caller that shared it.
 */
export function singleFlight<K, V>(): (key: K, compute: () => Promise<V>) => Promise<V> {
  const running = new Map<K, Promise<V>>();
  return (key, compute) => {
    const current = running.get(key);
    if (current) return current;
    const started = Promise.resolve()
      .then(compute)
      .finally(() => running.delete(key));
    running.set(key, started);
    return started;
  };
}
