import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

const API_ROOT = path.resolve(__dirname, '..');
/** Start-up on a busy machine: tsx compiles the API, then it connects and builds its indexes. */
const START_TIMEOUT_MS = 120_000;

export interface ApiProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  pid: number;
  /** What the process printed (pino's JSON lines and anything else), for failure messages. */
  output: string[];
  /** SIGTERM, then waits for it to exit. */
  stop(): Promise<void>;
  /** SIGKILL (no shutdown of any kind), then waits for it to be gone. */
  kill(): Promise<void>;
}

/**
 * The API itself (src/main.ts, through tsx) in a child process on a port of its own, with `env` on
 * top of the test's environment; resolves once it listens.
 */
export function startApiProcess(env: NodeJS.ProcessEnv): Promise<ApiProcess> {
  // tsx as a loader of this very process (not its CLI, which runs the API in a child of its own):
  // the pid is the API's, so a SIGKILL kills the API.
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: API_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DEMO_MODE: '',
      API_PROCESSES: '1',
      // The address the tests call, whatever HOST the environment the tests run in has.
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  readline.createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(
        new Error(`The API did not listen within ${START_TIMEOUT_MS} ms:\n${output.join('\n')}`),
      );
    }, START_TIMEOUT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`The API exited (${code ?? signal}) before it listened:\n${output.join('\n')}`),
      );
    });
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      const port = /"msg":"api listening"/.test(line) ? /"port":(\d+)/.exec(line)?.[1] : undefined;
      if (!port) return;
      clearTimeout(timer);
      resolve({ url: `http://127.0.0.1:${port}`, pid: child.pid!, output, stop, kill });
    });
  });
}
