/**
 * The systemd units of a machine without Docker (deploy/systemd/, docs/deploy.md): what restarts
 * the API's main process, what a reload sends it, how it is stopped, and the embedded database
 * started as the API starts it. `systemd-analyze verify` checks them where systemd is installed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SHUTDOWN_GRACE_MS } from '../../api/src/platform/processes';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const UNITS = path.join(REPO_ROOT, 'deploy', 'systemd');

/** A unit's `Key=value` lines of its [Service] section (a key may repeat). */
function service(name: string): Record<string, string[]> {
  const text = fs.readFileSync(path.join(UNITS, name), 'utf8');
  const section = text.split(/^\[Service\]$/m)[1]!.split(/^\[/m)[0]!;
  const entries: Record<string, string[]> = {};
  for (const line of section.split('\n')) {
    const match = /^(\w+)=(.*)$/.exec(line.trim());
    if (match) (entries[match[1]!] ??= []).push(match[2]!);
  }
  return entries;
}

describe('deploy/systemd', () => {
  test('campus-api: production from its settings file, restarted when the main process dies, reloaded with SIGHUP, stopped through the main process', () => {
    const api = service('campus-api.service');
    expect(api.Environment).toEqual(['NODE_ENV=production', 'API_ENV_FILE=/etc/campus/api.env']);
    expect(api.EnvironmentFile).toBeUndefined();
    expect(api.WorkingDirectory).toEqual(['/srv/campus/api']);
    expect(api.ExecStart).toEqual(['/usr/bin/node dist/main.js']);
    expect(api.ExecReload).toEqual(['/bin/kill -HUP $MAINPID']);
    expect(api.Restart).toEqual(['always']);
    // SIGTERM to the main process alone, and time for its processes' grace before SIGKILL.
    expect(api.KillMode).toEqual(['mixed']);
    expect(Number(api.TimeoutStopSec![0])).toBeGreaterThan(SHUTDOWN_GRACE_MS / 1000 + 5);
    expect(api.User).toEqual(['campus']);
  });

  test('campus-db: the embedded database on loopback, with the node flags the API starts it with, restarted when it dies', () => {
    const db = service('campus-db.service');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const nodeArgs = require('@campus/embedded-mongo/bin/node-args.cjs') as string[];
    expect(db.ExecStart).toEqual([
      `/usr/bin/node ${nodeArgs.join(' ')} packages/embedded-mongo/bin/embedded-mongo.cjs --host 127.0.0.1 --port 27017 --dbpath /var/lib/campus/db`,
    ]);
    expect(db.WorkingDirectory).toEqual(['/srv/campus']);
    expect(
      fs.existsSync(path.join(REPO_ROOT, 'packages/embedded-mongo/bin/embedded-mongo.cjs')),
    ).toBe(true);
    expect(db.Restart).toEqual(['always']);
  });

  const analyze = spawnSync('systemd-analyze', ['--version']).status === 0 ? test : test.skip;
  analyze('systemd-analyze verify accepts both units', () => {
    const verified = spawnSync(
      'systemd-analyze',
      ['verify', path.join(UNITS, 'campus-api.service'), path.join(UNITS, 'campus-db.service')],
      { encoding: 'utf8' },
    );
    expect({ status: verified.status, output: verified.stdout + verified.stderr }).toEqual({
      status: 0,
      output: '',
    });
  });
});
