import { spawn } from 'node:child_process';
import path from 'node:path';
import { useTestApp } from './test-app';

// The API itself (src/main.ts) started as production would start it, on this file's database.
const t = useTestApp();

/** Each test starts the API (tsx compiles it first): up to half a minute on a busy machine. */
jest.setTimeout(120_000);

const API_ROOT = path.resolve(__dirname, '..');
const SECRET = 'a-production-secret-of-more-than-32-bytes';

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
        DEMO_MODE: '',
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
  test('when the secret, SMTP and the database are as production needs, then the API listens', async () => {
    const run = await startApi({});
    expect(refusalLines(run.stderr)).toEqual([]);
    expect(run.listened).toBe(true);
  });

  test('when JWT_SECRET is unset, then the API refuses to start with one line saying why', async () => {
    const run = await startApi({ JWT_SECRET: '' });
    expect(run.code).toBe(1);
    expect(run.listened).toBe(false);
    expect(refusalLines(run.stderr)).toEqual([
      'Refusing to start in production: JWT_SECRET must be a random secret of at least 32 bytes in production (it is unset)',
    ]);
  });

  test('when JWT_SECRET is shorter than 32 bytes, then it refuses to start', async () => {
    const run = await startApi({ JWT_SECRET: 'campus-qa-only-secret' });
    expect(run.code).toBe(1);
    expect(refusalLines(run.stderr)).toEqual([
      'Refusing to start in production: JWT_SECRET must be a random secret of at least 32 bytes in production (it has 21)',
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
      'Refusing to start in production: the demo account ada.okafor@campus.edu exists and its password is public: delete the demo accounts, or start with DEMO_MODE=1 if this is a demo',
    ]);
    const demo = await startApi({ DEMO_MODE: '1' });
    expect(demo.listened).toBe(true);
  });

  test('when production starts on an empty database, then no demo data is seeded', async () => {
    await t.models.User.deleteMany({});
    const run = await startApi({});
    expect(run.listened).toBe(true);
    expect(await t.models.User.countDocuments()).toBe(0);
  });
});
