/**
 * Health checks for orchestrators, gateways and operators (docs/deploy.md, "Health and metrics"):
 *
 * - `GET /livez`: the process answers (its event loop runs). 200 `{ live: true }`, whatever the
 *   database does: restarting the process would not bring the database back.
 * - `GET /readyz`: the process can serve members: every named readiness check passes (the
 *   database is reachable, the event stream is followed, whatever else the app registers).
 *   200 or 503, with `{ ready, checks: { <name>: { ready, reason? } } }`. (The migrations run
 *   before the process listens, main.ts, which also registers a `migrations` check: a database
 *   restored underneath a running process with migrations pending takes it out of rotation.)
 *
 * Both also answer under `/api/` (`/api/livez`, `/api/readyz`), the only prefix the gateway
 * passes on, and both are sent `Cache-Control: no-store`: a proxy must never answer a check from
 * its cache. They answer before the database is looked at (a request that would need it is
 * refused with a 503 during an outage, app.ts), and are not in the call table: no web app calls
 * them.
 */
import type { Middleware } from 'koa';
import type { AppState } from './auth';
import type { Logger } from './logger';

/** A check passes with `true`; `false` or `{ ready: false, reason }` says it does not (and why). */
export type CheckResult = boolean | { ready: boolean; reason?: string };
export type ReadinessCheck = () => CheckResult | Promise<CheckResult>;

export interface CheckReport {
  ready: boolean;
  reason?: string;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, CheckReport>;
}

/** A check that has not answered by then has failed (a probe must answer within its timeout). */
export const CHECK_TIMEOUT_MS = 2_000;

/**
 * The app's readiness: named checks, registered by whoever knows what the app needs
 * (`ctx.readiness.add('migrations', ...)`). The app is ready when every check passes.
 */
export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();

  constructor(private readonly logger: Logger) {}

  /** Registers `check` under `name` (replacing the check of that name); returns its removal. */
  add(name: string, check: ReadinessCheck): () => void {
    this.checks.set(name, check);
    return () => {
      if (this.checks.get(name) === check) this.checks.delete(name);
    };
  }

  /** The names of the checks, in the order they were added. */
  get names(): string[] {
    return [...this.checks.keys()];
  }

  /** Runs every check at once, each given CHECK_TIMEOUT_MS. */
  async report(): Promise<ReadinessReport> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => [name, await this.run(name, check)] as const),
    );
    return { ready: entries.every(([, c]) => c.ready), checks: Object.fromEntries(entries) };
  }

  private async run(name: string, check: ReadinessCheck): Promise<CheckReport> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<CheckReport>((resolve) => {
      timer = setTimeout(
        () => resolve({ ready: false, reason: `no answer within ${CHECK_TIMEOUT_MS} ms` }),
        CHECK_TIMEOUT_MS,
      );
    });
    const answer = (async (): Promise<CheckReport> => {
      try {
        const result = await check();
        if (typeof result === 'boolean') return result ? { ready: true } : { ready: false };
        return result.ready
          ? { ready: true }
          : { ready: false, ...(result.reason ? { reason: result.reason } : {}) };
      } catch (err) {
        // The error stays in the log: the answer is public (the gateway passes /api/readyz on).
        this.logger.debug({ err, check: name }, 'readiness check failed');
        return { ready: false, reason: 'the check failed' };
      }
    })();
    try {
      return await Promise.race([answer, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}

const LIVE_PATHS = new Set(['/livez', '/api/livez']);
const READY_PATHS = new Set(['/readyz', '/api/readyz']);

/** Answers `/livez` and `/readyz` (and their `/api/` twins); anything else goes on. */
export function healthChecks(readiness: Readiness): Middleware<AppState> {
  return async (ctx, next) => {
    const live = LIVE_PATHS.has(ctx.path);
    if (!live && !READY_PATHS.has(ctx.path)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    ctx.state.route = ctx.path;
    ctx.state.probe = true;
    ctx.set('Cache-Control', 'no-store');
    if (live) {
      ctx.body = { live: true };
      return;
    }
    const report = await readiness.report();
    ctx.status = report.ready ? 200 : 503;
    ctx.body = report;
  };
}
