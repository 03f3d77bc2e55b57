import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

const API_ROOT = path.resolve(__dirname, '..');
/** Start-up on a busy machine: tsx compiles the API in each process, which connects and builds indexes. */
const START_TIMEOUT_MS = 180_000;

/** One of pino's JSON lines. */
export interface LogLine {
  msg?: string;
  pid?: number;
  pids?: number[];
  port?: number;
  [field: string]: unknown;
}

export interface ApiCluster {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The main process (the one that holds the port and reloads on SIGHUP). */
  pid: number;
  /** The API processes serving now, as the main process last announced them (alone: itself). */
  workerPids(): number[];
  /** Every line it printed so far, parsed (non-JSON lines as `{ msg: line }`). */
  lines: LogLine[];
  /** Resolves with the first line from index `from` on that `matches`; rejects if it exits first. */
  waitForLine(matches: (line: LogLine) => boolean, from?: number): Promise<LogLine>;
  /** Sends `signal` to the main process. */
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM to the main process, then waits for it to exit. */
  stop(): Promise<void>;
  /** What it printed, for failure messages. */
  output(): string;
}

/** The announcements of the main process that name the processes serving (platform/processes.ts). */
const ANNOUNCES_PIDS = new Set([
  'API processes ready',
  'reload done: every API process replaced',
  'an API process replaced the one that stopped',
]);

/**
 * The API itself (src/main.ts through tsx, or with `compiled` dist/main.js as production runs it)
 * with API_PROCESSES processes (default 2) on a port of its own, with `env` on top of the test's
 * environment; resolves once every process is ready.
 */
export function startApiCluster(
  env: NodeJS.ProcessEnv,
  {
    compiled = false,
    processes,
  }: {
    compiled?: boolean;
    /** How many API processes it runs, when a settings file rather than `env` says so. */
    processes?: number;
  } = {},
): Promise<ApiCluster> {
  // tsx as a loader of this very process (cluster.fork passes it on to every API process).
  const args = compiled ? ['dist/main.js'] : ['--import', 'tsx', 'src/main.ts'];
  const fullEnv = {
    ...process.env,
    NODE_ENV: 'development',
    DEMO_MODE: '',
    API_PROCESSES: '2',
    PORT: '0',
    LOG_LEVEL: 'info',
    ...env,
  };
  const alone = (processes ?? Number(fullEnv.API_PROCESSES)) === 1;
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: API_ROOT,
    env: fullEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  const listeners = new Set<() => void>();
  let exit: string | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = String(code ?? signal);
      for (const listener of listeners) listener();
      resolve();
    }),
  );
  const add = (text: string) => {
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      line = { msg: text };
    }
    lines.push(line);
    for (const listener of listeners) listener();
  };
  readline.createInterface({ input: child.stdout! }).on('line', add);
  readline.createInterface({ input: child.stderr! }).on('line', add);
  const output = () => lines.map((line) => JSON.stringify(line)).join('\n');

  const waitForLine = (
    matches: (line: LogLine) => boolean,
    from = 0,
    timeoutMs = START_TIMEOUT_MS,
  ) =>
    new Promise<LogLine>((resolve, reject) => {
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`No such line within ${timeoutMs} ms:\n${output()}`));
      }, timeoutMs);
      function check() {
        const found = lines.slice(from).find(matches);
        if (!found && exit === undefined) return;
        listeners.delete(check);
        clearTimeout(timer);
        if (found) resolve(found);
        else reject(new Error(`The API exited (${exit}):\n${output()}`));
      }
      listeners.add(check);
      check();
    });

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return waitForLine((line) => line.msg === (alone ? 'api listening' : 'API processes ready')).then(
    () => {
      const port = lines.find((line) => line.msg === 'api listening')!.port;
      return {
        url: `http://127.0.0.1:${port}`,
        pid: child.pid!,
        lines,
        workerPids: () =>
          alone
            ? [child.pid!]
            : [...lines].reverse().find((line) => ANNOUNCES_PIDS.has(line.msg ?? ''))!.pids!,
        waitForLine: (matches, from) => waitForLine(matches, from),
        signal: (signal) => child.kill(signal),
        stop,
        output,
      };
    },
    async (err: unknown) => {
      await stop();
      throw err;
    },
  );
}
