/**
 * The nginx configuration of a machine without Docker, rendered from the very templates and
 * start-up scripts the images use (docker/nginx/, docker/shell/, docker/gateway/), so the two
 * serve the same headers, caching and routes:
 *
 *   npm run render:nginx -- --out /etc/campus/nginx [--env-file /etc/campus/web.env]
 *
 * Variables (from the environment, or `--env-file`'s NAME=value lines on top of it):
 *   API_URL, MF_FEED_URL, MF_PROFILE_URL, MF_NOTIFICATIONS_URL, MF_ADMIN_URL, SHELL_URL,
 *   OVERRIDE_ORIGINS   as the images take them (docs/deploy.md, "The front-ends' variables"):
 *                      the URLs the browser uses; required, checked by the images' own scripts
 *   LISTEN             the address every server listens on (default 127.0.0.1: a TLS front on
 *                      this machine is what the public reaches)
 *   SHELL_PORT ... MF_ADMIN_PORT, GATEWAY_PORT
 *                      their ports (default 3000 to 3004, and 4000)
 *   API_HOST, API_PORT where the gateway finds the API processes (default 127.0.0.1:4100: the
 *                      API's own HOST and PORT)
 *   DNS_RESOLVER       the gateway's resolver when API_HOST is a name (default: the first
 *                      nameserver of /etc/resolv.conf); nginx asks it, not /etc/hosts
 *   CAMPUS_ROOT        the checkout whose builds are served (default: this one), each app's
 *                      from <CAMPUS_ROOT>/<app>/dist
 *
 * Written under `--out`:
 *   campus.conf        what the machine's nginx includes in its http block (one line:
 *                      `include <out>/campus.conf;`, e.g. from /etc/nginx/conf.d/campus.conf)
 *   sites/*.conf       one server per app and the API's gateway, from the image templates
 *   snippets/          docker/nginx/snippets (compression)
 *   runtime/<app>/     each app's security headers, CORS and preload, written by
 *                      docker/nginx/40-security-headers.sh; runtime/shell/env.json by
 *                      docker/shell/40-write-env-json.sh
 *   nginx.conf         a whole configuration to run these servers alone
 *                      (`nginx -p <out> -c <out>/nginx.conf`; the checks do)
 * Render again after changing a variable, then `nginx -s reload` (or `systemctl reload nginx`).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs, parseEnv } from 'node:util';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** The apps the gateway and the five front-end servers are rendered for. */
export const SITES = [
  {
    name: 'shell',
    template: 'docker/nginx/shell.conf.template',
    portVar: 'SHELL_PORT',
    port: 3000,
  },
  {
    name: 'mf-feed',
    template: 'docker/nginx/remote.conf.template',
    portVar: 'MF_FEED_PORT',
    port: 3001,
  },
  {
    name: 'mf-profile',
    template: 'docker/nginx/remote.conf.template',
    portVar: 'MF_PROFILE_PORT',
    port: 3002,
  },
  {
    name: 'mf-notifications',
    template: 'docker/nginx/remote.conf.template',
    portVar: 'MF_NOTIFICATIONS_PORT',
    port: 3003,
  },
  {
    name: 'mf-admin',
    template: 'docker/nginx/remote.conf.template',
    portVar: 'MF_ADMIN_PORT',
    port: 3004,
  },
  {
    name: 'gateway',
    template: 'docker/gateway/gateway.conf.template',
    portVar: 'GATEWAY_PORT',
    port: 4000,
  },
] as const;

export type SiteName = (typeof SITES)[number]['name'];

export interface RenderedNginx {
  out: string;
  /** The port each server listens on. */
  ports: Record<SiteName, number>;
  /** The address they listen on. */
  listen: string;
  /** The whole configuration to run them alone. */
  mainConfig: string;
}

/** The first nameserver the machine uses (nginx's resolver reads no /etc/resolv.conf itself). */
function systemResolver(): string {
  try {
    const text = fs.readFileSync('/etc/resolv.conf', 'utf8');
    const found = /^\s*nameserver\s+(\S+)/m.exec(text)?.[1];
    // An IPv6 address goes in brackets in nginx's resolver directive.
    if (found) return found.includes(':') ? `[${found}]` : found;
  } catch {
    // no resolv.conf: loopback
  }
  return '127.0.0.1';
}

/** envsubst as the nginx image runs it: `${NAME}` of each variable that is set, nothing else. */
export function substitute(
  template: string,
  variables: Record<string, string | undefined>,
): string {
  return template.replace(/\$\{(\w+)\}/g, (match, name: string) => variables[name] ?? match);
}

function runImageScript(script: string, env: NodeJS.ProcessEnv): void {
  try {
    execFileSync('sh', [path.join(REPO_ROOT, script)], { env, stdio: 'pipe' });
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(stderr || `${script} failed`, { cause: err });
  }
}

function positivePort(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${name} must be a port number (1 to 65535), got "${raw}"`);
  }
  return port;
}

/** Renders every file into `out` (created, and readable by nginx's workers). */
export function renderNginx(out: string, env: NodeJS.ProcessEnv): RenderedNginx {
  out = path.resolve(out);
  const root = path.resolve(env.CAMPUS_ROOT?.trim() || REPO_ROOT);
  const listen = env.LISTEN?.trim() || '127.0.0.1';
  if (!/^[\w.:[\]*-]+$/.test(listen)) throw new Error(`LISTEN must be an address, got "${listen}"`);
  const ports = Object.fromEntries(
    SITES.map((site) => [site.name, positivePort(env, site.portVar, site.port)]),
  ) as Record<SiteName, number>;
  const apiPort = positivePort(env, 'API_PORT', 4100);
  const apiHost = env.API_HOST?.trim() || '127.0.0.1';
  if (!/^[\w.-]+$/.test(apiHost)) throw new Error(`API_HOST must be a host name or address`);

  for (const dir of ['sites', 'snippets', 'runtime', 'logs', 'tmp']) {
    fs.mkdirSync(path.join(out, dir), { recursive: true, mode: 0o755 });
  }
  fs.chmodSync(out, 0o755);
  fs.cpSync(path.join(REPO_ROOT, 'docker/nginx/snippets'), path.join(out, 'snippets'), {
    recursive: true,
  });

  for (const site of SITES) {
    const runtime = path.join(out, 'runtime', site.name);
    fs.mkdirSync(runtime, { recursive: true });
    fs.chmodSync(runtime, 0o755);
    const variables: Record<string, string> = {
      PORT: `${listen}:${ports[site.name]}`,
      HTML_ROOT: path.join(root, site.name, 'dist'),
      SNIPPETS_DIR: path.join(out, 'snippets'),
      SECURITY_HEADERS_DIR: runtime,
      ENV_JSON_PATH: path.join(runtime, 'env.json'),
      API_HOST: apiHost,
      API_PORT: String(apiPort),
      DNS_RESOLVER: env.DNS_RESOLVER?.trim() || systemResolver(),
    };
    if (site.name !== 'gateway') {
      // The images' own start-up scripts, with the same variables: the same checks, headers and
      // env.json as a container writes when it starts.
      const scriptEnv = {
        PATH: process.env.PATH,
        ...pick(env, [
          'API_URL',
          'MF_FEED_URL',
          'MF_PROFILE_URL',
          'MF_NOTIFICATIONS_URL',
          'MF_ADMIN_URL',
          'SHELL_URL',
          'OVERRIDE_ORIGINS',
        ]),
        CAMPUS_APP: site.name === 'shell' ? 'shell' : 'remote',
        SECURITY_HEADERS_DIR: runtime,
        ENV_JSON_PATH: variables.ENV_JSON_PATH,
      };
      runImageScript('docker/nginx/40-security-headers.sh', scriptEnv);
      if (site.name === 'shell') runImageScript('docker/shell/40-write-env-json.sh', scriptEnv);
    }
    const rendered = substitute(
      fs.readFileSync(path.join(REPO_ROOT, site.template), 'utf8'),
      variables,
    );
    const directives = rendered.replace(/#.*$/gm, '');
    const left = directives.match(/\$\{\w+\}/g);
    if (left) throw new Error(`${site.template}: nothing fills ${left.join(', ')}`);
    // A path only the image has, written into the template instead of its variable.
    const imagePath = /\/etc\/nginx\/(runtime|snippets)|\/usr\/share\/nginx/.exec(directives)?.[0];
    if (imagePath) {
      throw new Error(
        `${site.template} names the image's ${imagePath}: use the template's variable`,
      );
    }
    fs.writeFileSync(
      path.join(out, 'sites', `${site.name}.conf`),
      `# Rendered by npm run render:nginx from ${site.template}: edit the template, not this file.\n${rendered}`,
    );
  }
  // nginx's workers (another user) serve env.json; the rest is read by its master alone.
  fs.chmodSync(path.join(out, 'runtime', 'shell', 'env.json'), 0o644);

  fs.writeFileSync(
    path.join(out, 'campus.conf'),
    `# Campus's servers (npm run render:nginx): include this file in nginx's http block.\ninclude ${path.join(out, 'sites')}/*.conf;\n`,
  );
  const mainConfig = path.join(out, 'nginx.conf');
  fs.writeFileSync(
    mainConfig,
    [
      `# Campus's servers alone: nginx -p ${out} -c ${mainConfig} (npm run render:nginx).`,
      `# A machine's own nginx includes ${path.join(out, 'campus.conf')} instead.`,
      'worker_processes 1;',
      `pid ${path.join(out, 'nginx.pid')};`,
      `error_log ${path.join(out, 'logs', 'error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      '    include /etc/nginx/mime.types;',
      '    default_type application/octet-stream;',
      '    sendfile on;',
      `    access_log ${path.join(out, 'logs', 'access.log')};`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (kind) => `    ${kind}_temp_path ${path.join(out, 'tmp', kind)};`,
      ),
      `    include ${path.join(out, 'campus.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  return { out, ports, listen, mainConfig };
}

function pick(env: NodeJS.ProcessEnv, names: string[]): NodeJS.ProcessEnv {
  return Object.fromEntries(
    names.filter((name) => env[name] !== undefined).map((name) => [name, env[name]]),
  );
}

function main() {
  const { values } = parseArgs({
    options: { out: { type: 'string' }, 'env-file': { type: 'string' } },
  });
  if (!values.out)
    throw new Error('usage: npm run render:nginx -- --out <dir> [--env-file <file>]');
  // Through npm the working directory is the repository's: paths are taken from where the
  // command was typed (INIT_CWD).
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const envFile = values['env-file'] && path.resolve(cwd, values['env-file']);
  const env = envFile
    ? { ...process.env, ...parseEnv(fs.readFileSync(envFile, 'utf8')) }
    : process.env;
  const rendered = renderNginx(path.resolve(cwd, values.out), env);
  const listing = SITES.map(
    (site) => `  ${site.name.padEnd(16)} ${rendered.listen}:${rendered.ports[site.name]}`,
  );
  process.stdout.write(
    [
      `nginx configuration written to ${rendered.out}:`,
      ...listing,
      `Include ${path.join(rendered.out, 'campus.conf')} in nginx's http block, then: nginx -t && systemctl reload nginx`,
      '',
    ].join('\n'),
  );
}

if (require.main === module) {
  try {
    main();
  } catch (err) {
    process.stderr.write(`render:nginx: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
