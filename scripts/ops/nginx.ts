/**
 * Debian's nginx (the `nginx` package: `apt-get install nginx`) running a configuration rendered
 * by render-nginx.ts, in the foreground as a child of this process: for the nginx test and
 * `npm run ops:check`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { RenderedNginx } from './render-nginx';

/** The nginx binary: on PATH, or where Debian puts it (/usr/sbin is not on every user's PATH). */
export function findNginx(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin'];
  return dirs
    .map((dir) => path.join(dir, 'nginx'))
    .find((file) => {
      try {
        fs.accessSync(file, fs.constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

export interface RunningNginx {
  process: ChildProcess;
  /** What nginx wrote to its error log so far. */
  errorLog(): string;
  /** Fast shutdown (SIGTERM), then waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts nginx on `rendered` and resolves once every server answers its health check. */
export async function startNginx(
  rendered: RenderedNginx,
  nginx = findNginx(),
): Promise<RunningNginx> {
  if (!nginx) throw new Error('nginx is not installed (apt-get install nginx)');
  const errorLogFile = path.join(rendered.out, 'logs', 'error.log');
  const child = spawn(
    nginx,
    ['-p', rendered.out, '-c', rendered.mainConfig, '-e', errorLogFile, '-g', 'daemon off;'],
    { stdio: ['ignore', 'inherit', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const errorLog = () => {
    let text = stderr;
    try {
      text += fs.readFileSync(errorLogFile, 'utf8');
    } catch {
      // not written yet
    }
    return text;
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const host =
    rendered.listen === '*' || rendered.listen === '0.0.0.0' ? '127.0.0.1' : rendered.listen;
  const deadline = Date.now() + 30_000;
  for (const port of Object.values(rendered.ports)) {
    for (;;) {
      if (child.exitCode !== null) {
        throw new Error(`nginx exited (${child.exitCode}):\n${errorLog()}`);
      }
      const answered = await fetch(`http://${host}:${port}/healthz`).then(
        (res) => res.ok,
        () => false,
      );
      if (answered) break;
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`nginx did not answer on port ${port} within 30 s:\n${errorLog()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { process: child, errorLog, stop };
}
