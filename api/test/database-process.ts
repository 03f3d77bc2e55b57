/**
 * The embedded database's CLI as a real child process on a port of the test's, so that a test can
 * stop it and start it again on the same port and data (a database outage).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';

const CLI = path.join(
  path.dirname(require.resolve('@campus/embedded-mongo/package.json')),
  'bin',
  'embedded-mongo.cjs',
);

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The embedded database's CLI on `port` with data in `dbPath`; resolves once it listens. */
export function startDatabaseProcess(port: number, dbPath: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [CLI, '--port', String(port), '--dbpath', dbPath], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`embedded-mongo exited (${code})`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes('listening on')) resolve(child);
    });
  });
}

export function stopDatabaseProcess(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
