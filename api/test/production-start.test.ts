import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { useTestApp } from './test-app';

// The API itself (src/main.ts) started as production would start it, on this file's database.
const t = useTestApp();

/** Each test starts the API (tsx compiles it first): up to half a minute on a busy machine. */
jest.setTimeout(120_000);

const API_ROOT = path.resolve(__dirname, '..');
/** As an operator generates it (`openssl rand -base64 48`), new for this run. */
const SECRET = randomBytes(48).toString('base64');
/** The JWT secret .env.qa held until issue 35: public, though it looks random. */
const ENV_QA_JWT_SECRET = 'campus-qa-only-0c5d1e7a9b3f4a62b8e1d7c4f2a9e6b3';

function databaseUri(): string {
  const { host, port, name } = t.database.connection;
  return `mongodb://${host}:${port}/${name}?directConnection=true`;
}

/**
 * Starts the API with `env` on top of a complete production environment; resolves with what it
 * printed when it exits, or once it listens (it is then stopped with SIGTERM).
 */
function startApi(env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; listened: boolean; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: API_ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: '0',
        LOG_LEVEL: 'info',
        MONGODB_URI: databaseUri(),
        DATA_DIR: t.dataDir,
        JWT_SECRET: SECRET,
        SMTP_URL: 'smtp://127.0.0.1:2525',
        WEB_URL: 'https://campus.example.edu',
        PUBLIC_URL: 'https://api.campus.example.edu',
        ALLOWED_ORIGINS: 'https://campus.example.edu',
        DEMO_MODE: '',
        EMBEDDED_DATABASE: '',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let listened = false;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (!listened && chunk.toString().includes('api listening')) {
        listened = true;
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, listened, stderr }));
  });
}

const refusalLines = (stderr: string) =>
  stderr.split('\n').filter((line) => line.startsWith('Refusing to start in production: '));

describe('starting in production', () => {
  test('when the secret, SMTP, the database and the addresses are as production needs, then the API listens', async () => {
    const run = await startApi({});
    expect(refusalLines(run.stderr)).toEqual([]);
    expect(run.listened).toBe(true);
  });

  test.each([
    [
      'unset',
      { JWT_SECRET: '' },
      'JWT_SECRET must be set in production: a random secret of at least 128 bits (openssl rand -base64 48)',
    ],
    [
      '32 × a',
      { JWT_SECRET: 'a'.repeat(32) },
      'JWT_SECRET has about 4 bits of estimated entropy, under the 128 production needs: generate one (openssl rand -base64 48)',
    ],
    [
      'the value committed in .env.qa',
      { JWT_SECRET: ENV_QA_JWT_SECRET },
      'JWT_SECRET is a value committed to the Campus repository, so anyone can forge tokens with it: generate one (openssl rand -base64 48)',
    ],
    [
      '32 × a under NODE_ENV=Production (a capital P)',
      { NODE_ENV: 'Production', JWT_SECRET: 'a'.repeat(32) },
      'JWT_SECRET has about 4 bits of estimated entropy, under the 128 production needs: generate one (openssl rand -base64 48)',
    ],
  ])(
    'when JWT_SECRET is %s, then the API refuses to start with one line naming it',
    async (_, env, line) => {
      const run = await startApi(env);
      expect(run.code).toBe(1);
      expect(run.listened).toBe(false);
      expect(refusalLines(run.stderr)).toEqual([`Refusing to start in production: ${line}`]);
    },
  );

  test.each([
    [
      'DEMO_MODE=1',
      { DEMO_MODE: '1' },
      'DEMO_MODE must be off in production (it seeds demo accounts whose passwords are public): run the demo with NODE_ENV unset or development',
    ],
    [
      'no MONGODB_URI (nor EMBEDDED_DATABASE=1)',
      { MONGODB_URI: '' },
      'MONGODB_URI must be set in production (a MongoDB replica set); EMBEDDED_DATABASE=1 starts the embedded database instead, on purpose only',
    ],
    [
      'no WEB_URL',
      { WEB_URL: '' },
      'WEB_URL must be set in production: the web app, for the links in e-mails',
    ],
    [
      'no PUBLIC_URL',
      { PUBLIC_URL: '' },
      'PUBLIC_URL must be set in production: the API as browsers reach it, for avatar URLs',
    ],
    [
      'no ALLOWED_ORIGINS',
      { ALLOWED_ORIGINS: '' },
      'ALLOWED_ORIGINS must be set in production: the origins of the web apps that may call the API',
    ],
  ])(
    'when production has %s, then it refuses to start with one line naming it',
    async (_, env, line) => {
      const run = await startApi(env);
      expect(run.code).toBe(1);
      expect(run.listened).toBe(false);
      expect(refusalLines(run.stderr)).toEqual([`Refusing to start in production: ${line}`]);
    },
  );

  test('when several settings are wrong, then every refusal is printed, one line each, before it exits', async () => {
    const run = await startApi({
      NODE_ENV: 'PRODUCTION',
      JWT_SECRET: 'password1234567890password12345678',
      DEMO_MODE: '1',
      MONGODB_URI: '',
      WEB_URL: '',
    });
    expect(run.code).toBe(1);
    expect(refusalLines(run.stderr).map((line) => line.split(' ')[5])).toEqual([
      'JWT_SECRET',
      'DEMO_MODE',
      'MONGODB_URI',
      'WEB_URL',
    ]);
  });

  test('when SMTP_URL is unset, then it refuses to start rather than write e-mails to disk', async () => {
    const run = await startApi({ SMTP_URL: '' });
    expect(run.code).toBe(1);
    expect(refusalLines(run.stderr)).toEqual([
      'Refusing to start in production: SMTP_URL must be set in production: verification e-mails would be written to disk instead',
    ]);
  });

  test('when a demo account is in the database, then it refuses to start, naming it; in demo mode it starts', async () => {
    await t.createMember({ email: 'ada.okafor@campus.edu', name: 'Ada Okafor' });
    const run = await startApi({});
    expect(run.code).toBe(1);
    expect(refusalLines(run.stderr)).toEqual([
      'Refusing to start in production: the demo account ada.okafor@campus.edu exists and its password is public: delete the demo accounts, or run the demo with NODE_ENV unset or development and DEMO_MODE=1',
    ]);
    // The demo: not production, in demo mode.
    const demo = await startApi({ NODE_ENV: 'development', DEMO_MODE: '1' });
    expect(demo.listened).toBe(true);
  });

  test('when production starts on an empty database, then no demo data is seeded', async () => {
    await t.models.User.deleteMany({});
    const run = await startApi({});
    expect(run.listened).toBe(true);
    expect(await t.models.User.countDocuments()).toBe(0);
  });
});
