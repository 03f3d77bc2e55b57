/** autocannon runs and the measurements every benchmark reports. */
import autocannon from 'autocannon';
import type { Connection } from 'mongoose';
import { createTokenService } from '../../api/src/platform/auth';
import { BENCH_JWT_SECRET } from './processes';

export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  /** Non-2xx responses, connection errors and timeouts. */
  errors: number;
  statusCodes: Record<string, number>;
}

export async function runLoad(
  options: Omit<autocannon.Options, 'connections'> & { connections?: number },
): Promise<LoadResult> {
  const result = await autocannon({ connections: CONNECTIONS, ...options });
  const statusCodes: Record<string, number> = {};
  for (const [code, count] of Object.entries(result.statusCodeStats ?? {})) {
    statusCodes[code] = (count as { count: number }).count;
  }
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    errors: result.non2xx + result.errors + result.timeouts,
    statusCodes,
  };
}

export function signToken(userId: number): string {
  return createTokenService({
    secret: BENCH_JWT_SECRET,
    issuer: 'campus-api',
    expiresIn: '2h',
  }).sign(userId);
}

/**
 * Counts the database operations mongoose sends on `connection` (one round trip each) while `fn`
 * runs, in this process: the API runs in-process for this measurement only (as
 * api/test/query-counter.ts does).
 */
export async function countRoundTrips(
  connection: Connection,
  fn: () => Promise<unknown>,
): Promise<string[]> {
  const ops: string[] = [];
  connection.set('debug', (collection: string, method: string) => {
    ops.push(`${collection}.${method}`);
  });
  try {
    await fn();
  } finally {
    connection.set('debug', false);
  }
  return ops;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
