/**
 * The metrics of several API processes (API_PROCESSES=2, node's cluster: src/main.ts as it is
 * run) are one sum: the primary adds up every process's (prom-client's AggregatorRegistry) on
 * METRICS_PORT, and a process asked on the API port with METRICS_TOKEN asks the primary for it.
 */
import http from 'node:http';
import { startApiProcess, type ApiProcess } from './api-process';
import { eventually } from './eventually';
import { TEST_JWT_SECRET, useTestApp } from './test-app';

const t = useTestApp();
const METRICS_TOKEN = 'cluster-metrics-token-for-tests-0123456789abcdef';
let api: ApiProcess;

/** Start-up of a primary and two processes on a busy machine (tsx compiles the API in each). */
jest.setTimeout(180_000);

beforeAll(async () => {
  const { host, port, name } = t.database.connection;
  api = await startApiProcess({
    MONGODB_URI: `mongodb://${host}:${port}/${name}?directConnection=true`,
    DATA_DIR: t.dataDir,
    JWT_SECRET: TEST_JWT_SECRET,
    API_PROCESSES: '2',
    HOST: '127.0.0.1',
    METRICS_PORT: '0',
    METRICS_TOKEN,
  });
  // Both processes listen before any request is sent: either may take a connection.
  expect(
    await eventually(
      () => api.output.filter((l) => l.includes('"msg":"api listening"')).length === 2,
    ),
  ).toBe(true);
});

afterAll(async () => {
  await api?.stop();
});

/** GET `url` on a connection of its own (the cluster gives each new connection to a process). */
function getOnNewConnection(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    http
      .get(url, { agent: false, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      })
      .on('error', reject);
  });
}

const settingsCount = (text: string) =>
  Number(
    /^campus_http_requests_total\{method="GET",route="\/api\/settings",status="200"\} (\d+)$/m.exec(
      text,
    )?.[1] ?? 0,
  );

test('when two processes answer requests, then the metrics port and the API port show the sum of both', async () => {
  const metricsLine = api.output.find((l) => l.includes('"msg":"metrics listening"'));
  const metricsPort = /"port":(\d+)/.exec(metricsLine ?? '')?.[1];
  expect(metricsPort).toBeDefined();
  expect(api.output.find((l) => l.includes('"msg":"api listening"'))).toContain(
    '"host":"127.0.0.1"',
  );

  // Requests on connections of their own until both processes have answered some (each request
  // line names its process): the processes take the connections as the system hands them out
  // (platform/processes.ts), not strictly in turn.
  const answeredBy = () =>
    new Set(
      api.output
        .filter((l) => l.includes('"msg":"request"') && l.includes('"route":"/api/settings"'))
        .map((l) => /"pid":(\d+)/.exec(l)?.[1]),
    );
  let REQUESTS = 0;
  while (REQUESTS < 12 || (answeredBy().size < 2 && REQUESTS < 500)) {
    expect((await getOnNewConnection(`${api.url}/api/settings`)).status).toBe(200);
    REQUESTS++;
  }
  expect(await eventually(() => answeredBy().size === 2)).toBe(true);

  const fromMetricsPort = await getOnNewConnection(`http://127.0.0.1:${metricsPort}/metrics`, {
    Authorization: `Bearer ${METRICS_TOKEN}`,
  });
  expect(fromMetricsPort.status).toBe(200);
  expect(settingsCount(fromMetricsPort.body)).toBe(REQUESTS);
  // The process's own figures are there too, once per name.
  expect(fromMetricsPort.body.match(/^# TYPE process_resident_memory_bytes gauge$/gm)).toHaveLength(
    1,
  );
  expect(fromMetricsPort.body).toMatch(/^# TYPE nodejs_eventloop_lag_seconds gauge$/m);

  // Whichever process takes the scrape on the API port answers with the same sum.
  for (let i = 0; i < 2; i++) {
    const fromApiPort = await getOnNewConnection(`${api.url}/metrics`, {
      Authorization: `Bearer ${METRICS_TOKEN}`,
    });
    expect(fromApiPort.status).toBe(200);
    expect(settingsCount(fromApiPort.body)).toBe(REQUESTS);
  }
  expect((await getOnNewConnection(`${api.url}/metrics`)).status).toBe(401);
  expect((await getOnNewConnection(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(401);
});
