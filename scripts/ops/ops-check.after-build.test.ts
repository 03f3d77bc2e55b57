/**
 * `npm run ops:check -- --quick` in CI: the operator's walk (scripts/ops/ops-check.ts) on the
 * builds, as a child process, every step ok. Skipped, saying so, only where nginx is not
 * installed outside CI (CI installs it: .ci/run, scripts/ensure-nginx.sh).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { embeddedMongoCli } from './loopback';
import { findNginx } from './nginx';

const nginxInstalled = findNginx() !== undefined;
if (!nginxInstalled && process.env.CI) {
  throw new Error('nginx is not installed, and CI must run ops:check: .ci/run installs it');
}
if (!nginxInstalled) {
  process.stderr.write(
    "SKIPPED scripts/ops/ops-check.after-build.test.ts: Debian's nginx is not installed " +
      '(apt-get install -y nginx; CI installs it in .ci/run)\n',
  );
}
const testWithNginx = nginxInstalled ? test : test.skip;

function opsCheck(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'ops-check.ts'), '--quick'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

testWithNginx(
  'when ops:check --quick walks the plain machine, then every step is ok (the backup step: once embedded-mongo has dump and restore)',
  async () => {
    // An embedded-mongo without the command reads `dump` as an argument of the server.
    const backups = !(await embeddedMongoCli(['dump'])).stderr.includes(
      "Unexpected argument 'dump'",
    );
    const { code, output } = await opsCheck();
    const results = [...output.matchAll(/^ {2}-> (ok|FAIL|not available) /gm)].map((m) => m[1]);
    expect({ results, output }).toEqual({
      results: ['ok', 'ok', 'ok', 'ok', 'ok', backups ? 'ok' : 'not available'],
      output,
    });
    expect(code).toBe(0);
  },
  240_000,
);
