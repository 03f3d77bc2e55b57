/**
 * Where the metrics are served apart from the API (main.ts):
 *
 * - `startMetricsServer`: METRICS_PORT, a listener of its own on METRICS_HOST (loopback unless
 *   set), answering `GET /metrics` only (with METRICS_TOKEN as a bearer token when it is set).
 *   Nothing else is served there, and the gateway never reaches it.
 * - With API_PROCESSES > 1 (node's cluster), every process's metrics are added up in the primary
 *   with prom-client's AggregatorRegistry: counters and histograms summed, the event-loop lag
 *   averaged, figures every process reads from the database (the mail queue) taken once. The
 *   primary serves METRICS_PORT; a process asked for `/metrics` on the API port (METRICS_TOKEN)
 *   asks the primary for the sum (`clusterMetricsOfWorker`).
 */
import cluster, { type Worker } from 'node:cluster';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AggregatorRegistry, type Registry } from 'prom-client';
import type { Logger } from './logger';
import { bearerMatches, METRICS_CONTENT_TYPE } from './metrics';

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

/** `GET /metrics` on `host:port`, answered with `text()`; a 401 without `token` when set. */
export async function startMetricsServer(options: {
  host: string;
  port: number;
  token: string | undefined;
  text: () => Promise<string>;
  logger: Logger;
}): Promise<MetricsServer> {
  const { token, text, logger } = options;
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?', 1)[0];
    const send = (status: number, type: string, body: string, headers = {}) => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      send(404, 'application/json', JSON.stringify({ message: 'Not found' }));
      return;
    }
    if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
      send(401, 'application/json', JSON.stringify({ message: 'Authentication required' }), {
        'WWW-Authenticate': 'Bearer realm="metrics"',
      });
      return;
    }
    text().then(
      (body) => send(200, METRICS_CONTENT_TYPE, body),
      (err: unknown) => {
        logger.warn({ err }, 'metrics could not be collected');
        send(503, 'application/json', JSON.stringify({ message: 'Metrics unavailable' }));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  logger.info({ host: options.host, port }, 'metrics listening');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const ASK_PRIMARY = 'campus:metrics-of-every-process';
const PRIMARY_ANSWER = 'campus:metrics-of-every-process:answer';
/** The primary's aggregation waits this long for its processes (prom-client's own limit is 5 s). */
const ASK_PRIMARY_TIMEOUT_MS = 10_000;

interface PrimaryAnswer {
  type: typeof PRIMARY_ANSWER;
  id: number;
  text?: string;
  error?: string;
}

/**
 * In the primary: every process's metrics, summed (prom-client asks each process over the
 * cluster's IPC channel); also answers the processes that ask for them (`clusterMetricsOfWorker`).
 */
export function clusterMetricsOfPrimary(logger: Logger): () => Promise<string> {
  const aggregator = new AggregatorRegistry();
  const text = () => aggregator.clusterMetrics();
  cluster.on('message', (worker: Worker, message: { type?: unknown; id?: unknown }) => {
    if (message?.type !== ASK_PRIMARY || typeof message.id !== 'number') return;
    const { id } = message;
    const answer = (fields: Partial<PrimaryAnswer>) => {
      if (worker.isConnected()) worker.send({ type: PRIMARY_ANSWER, id, ...fields });
    };
    text().then(
      (body) => answer({ text: body }),
      (err: unknown) => {
        logger.warn({ err }, 'metrics of every API process could not be collected');
        answer({ error: err instanceof Error ? err.message : String(err) });
      },
    );
  });
  return text;
}

/**
 * In one of several processes: answers the primary's requests for this process's metrics (none
 * until `serve` names them: a process still starting does not hold up a scrape), and `text()`
 * asks the primary for every process's.
 */
export function clusterMetricsOfWorker(): {
  serve(registries: Registry[]): void;
  text(): Promise<string>;
} {
  // prom-client answers the primary from the registries set here; an AggregatorRegistry made in
  // a worker only adds that listener.
  AggregatorRegistry.setRegistries([]);
  new AggregatorRegistry();
  let nextId = 0;
  const waiting = new Map<number, (answer: PrimaryAnswer) => void>();
  process.on('message', (message: PrimaryAnswer) => {
    if (message?.type !== PRIMARY_ANSWER) return;
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  return {
    serve: (registries) => AggregatorRegistry.setRegistries(registries),
    text() {
      const id = nextId++;
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error('the primary process did not answer with the metrics'));
        }, ASK_PRIMARY_TIMEOUT_MS);
        waiting.set(id, (answer) => {
          clearTimeout(timer);
          if (answer.text !== undefined) resolve(answer.text);
          else reject(new Error(answer.error ?? 'no metrics'));
        });
        process.send!({ type: ASK_PRIMARY, id });
      });
    },
  };
}
