import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const bin = path.resolve(__dirname, '../../bin/embedded-mongo.cjs');

export interface ChildServer {
  uri: string;
  child: ChildProcess;
  /** Resolves once the server has printed a line matching `pattern` (since it started). */
  printed(pattern: RegExp): Promise<void>;
}

/** Everything a child prints on stdout from now on, and a wait for a line matching a pattern. */
export function watchOutput(child: ChildProcess): (pattern: RegExp) => Promise<void> {
  let out = '';
  const waits = new Set<() => void>();
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    for (const w of [...waits]) w();
  });
  return (pattern) =>
    new Promise((resolve, reject) => {
      const check = () => {
        if (pattern.test(out)) {
          waits.delete(check);
          child.off('exit', exited);
          resolve();
        }
      };
      const exited = (code: number | null) => {
        waits.delete(check);
        reject(new Error(`the server exited (${code}) before printing ${pattern}:\n${out}`));
      };
      waits.add(check);
      child.once('exit', exited);
      check();
    });
}

const spawned = new Set<ChildProcess>();

/** Kills every server a test started that is still running (call from afterEach). */
export async function killSpawnedServers(): Promise<void> {
  await Promise.all(
    [...spawned].map((child) => {
      spawned.delete(child);
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      child.kill('SIGKILL');
      return waitForExit(child);
    }),
  );
}

/** Starts the CLI in its own process and resolves once it prints its listening line. */
export function spawnServer(dbPath: string, extraArgs: string[] = []): Promise<ChildServer> {
  const child = spawn(process.execPath, [bin, '--port', '0', '--dbpath', dbPath, ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  spawned.add(child);
  const printed = watchOutput(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (mongodb:\/\/\S+)/.exec(out);
      if (m) resolve({ uri: m[1] as string, child, printed });
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`embedded-mongo exited with ${code}: ${err}`)));
  });
}

export function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}
