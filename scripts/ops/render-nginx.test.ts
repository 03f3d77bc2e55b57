/**
 * `npm run render:nginx`: the images' templates rendered for a machine without Docker. Serving
 * the builds through Debian's nginx with them is nginx.after-build.test.ts (after the build).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findNginx } from './nginx';
import { renderNginx, SITES, substitute } from './render-nginx';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

const FRONT_ENDS = {
  API_URL: 'https://api.campus.example.edu',
  MF_FEED_URL: 'https://feed.campus.example.edu/mf-manifest.json',
  MF_PROFILE_URL: 'https://profile.campus.example.edu/mf-manifest.json',
  MF_NOTIFICATIONS_URL: 'https://notifications.campus.example.edu/mf-manifest.json',
  MF_ADMIN_URL: 'https://admin.campus.example.edu/mf-manifest.json',
  SHELL_URL: 'https://campus.example.edu',
};

let out: string;
beforeEach(() => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-render-nginx-'));
});
afterEach(() => fs.rmSync(out, { recursive: true, force: true }));

const read = (file: string) => fs.readFileSync(path.join(out, file), 'utf8');

describe('render:nginx', () => {
  test('when the front-ends’ variables are given, then one server per app and the gateway listen on loopback, serving the checkout’s builds with the images’ headers', () => {
    const rendered = renderNginx(out, { ...FRONT_ENDS, DNS_RESOLVER: '127.0.0.53' });
    expect(rendered.ports).toEqual({
      shell: 3000,
      'mf-feed': 3001,
      'mf-profile': 3002,
      'mf-notifications': 3003,
      'mf-admin': 3004,
      gateway: 4000,
    });
    for (const site of SITES) {
      const text = read(`sites/${site.name}.conf`);
      expect(text.replace(/#.*$/gm, '')).not.toMatch(/\$\{\w+\}/);
      // Every path is this machine's: none of the image's is left in a directive.
      expect(text.replace(/#.*$/gm, '')).not.toMatch(/\/etc\/nginx\/|\/usr\/share\/nginx/);
      expect(text).toContain(`listen 127.0.0.1:${rendered.ports[site.name]};`);
      if (site.name === 'gateway') continue;
      expect(text).toContain(`root ${path.join(REPO_ROOT, site.name, 'dist')};`);
      expect(text).toContain(`include ${out}/snippets/compression.conf;`);
      expect(text).toContain(`include ${out}/runtime/${site.name}/security-headers.conf;`);
    }
    // The gateway passes /api/ to the API processes on this machine.
    const gateway = read('sites/gateway.conf');
    expect(gateway).toContain('set $api_upstream http://127.0.0.1:4100;');
    expect(gateway).toContain('resolver 127.0.0.53 valid=10s ipv6=off;');
    // The images' own scripts wrote the headers and env.json.
    expect(read('runtime/shell/security-headers.conf')).toContain(
      "connect-src 'self' https://api.campus.example.edu https://feed.campus.example.edu",
    );
    expect(read('runtime/mf-feed/cors.conf')).toContain(
      'add_header Access-Control-Allow-Origin "https://campus.example.edu" always;',
    );
    expect(JSON.parse(read('runtime/shell/env.json'))).toMatchObject({
      apiUrl: FRONT_ENDS.API_URL,
      remotes: { mf_admin: FRONT_ENDS.MF_ADMIN_URL },
    });
    expect(read('sites/shell.conf')).toContain(`alias ${out}/runtime/shell/env.json;`);
    expect(read('campus.conf')).toBe(
      `# Campus's servers (npm run render:nginx): include this file in nginx's http block.\ninclude ${out}/sites/*.conf;\n`,
    );
  });

  test('when ports, the address, the API and the checkout are given, then the servers use them', () => {
    const rendered = renderNginx(out, {
      ...FRONT_ENDS,
      LISTEN: '10.0.0.5',
      SHELL_PORT: '8000',
      GATEWAY_PORT: '8100',
      API_HOST: '10.0.0.6',
      API_PORT: '4000',
      CAMPUS_ROOT: '/srv/campus',
    });
    expect(rendered.listen).toBe('10.0.0.5');
    expect(read('sites/shell.conf')).toContain('listen 10.0.0.5:8000;');
    expect(read('sites/shell.conf')).toContain('root /srv/campus/shell/dist;');
    expect(read('sites/mf-admin.conf')).toContain('listen 10.0.0.5:3004;');
    expect(read('sites/gateway.conf')).toContain('listen 10.0.0.5:8100;');
    expect(read('sites/gateway.conf')).toContain('set $api_upstream http://10.0.0.6:4000;');
  });

  test('when a front-end variable is missing or unsafe, then it refuses with the image script’s own message', () => {
    const { API_URL: _api, ...withoutApi } = FRONT_ENDS;
    expect(() => renderNginx(out, withoutApi)).toThrow('40-security-headers: API_URL must be set');
    expect(() => renderNginx(out, { ...FRONT_ENDS, SHELL_URL: 'https://x"; evil' })).toThrow(
      /SHELL_URL must be a plain URL/,
    );
    expect(() => renderNginx(out, { ...FRONT_ENDS, SHELL_PORT: '80x' })).toThrow(
      'SHELL_PORT must be a port number (1 to 65535), got "80x"',
    );
  });

  test('envsubst as the image runs it: only the variables that are set', () => {
    expect(substitute('listen ${PORT}; root ${HTML_ROOT}; $uri', { PORT: '3000' })).toBe(
      'listen 3000; root ${HTML_ROOT}; $uri',
    );
  });

  const withNginx = findNginx() ? test : test.skip;
  withNginx('when nginx is installed, then it accepts the whole configuration (nginx -t)', () => {
    const rendered = renderNginx(out, FRONT_ENDS);
    const checked = spawnSync(
      findNginx()!,
      ['-t', '-p', out, '-c', rendered.mainConfig, '-e', path.join(out, 'logs', 'error.log')],
      { encoding: 'utf8' },
    );
    expect({ status: checked.status, stderr: checked.stderr }).toEqual({
      status: 0,
      stderr: expect.stringContaining('test is successful'),
    });
  });

  test('the command line writes the files and says where to include them', () => {
    const envFile = path.join(out, 'web.env');
    fs.writeFileSync(
      envFile,
      Object.entries(FRONT_ENDS)
        .map(([name, value]) => `${name}=${value}\n`)
        .join(''),
    );
    const target = path.join(out, 'nginx');
    const printed = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(__dirname, 'render-nginx.ts'),
        '--out',
        target,
        '--env-file',
        envFile,
      ],
      { encoding: 'utf8', env: { PATH: process.env.PATH } },
    );
    expect(printed).toContain(`nginx configuration written to ${target}:`);
    expect(printed).toContain('  gateway          127.0.0.1:4000');
    expect(fs.existsSync(path.join(target, 'sites', 'mf-profile.conf'))).toBe(true);
  });
});
