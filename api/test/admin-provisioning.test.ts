import { spawn } from 'node:child_process';
import path from 'node:path';
import bcrypt from 'bcrypt';
import { provisionAdmin } from '../src/admin/provision-admin';
import { createScriptContext } from '../src/app-context';
import { createLogger } from '../src/platform/logger';
import { uniqueEmail, useTestApp } from './test-app';

// Registrations must start from an empty database: this file's first test registers past 107.
const t = useTestApp();

/** The command-line tests start the CLI (tsx compiles it first): a while on a busy machine. */
jest.setTimeout(120_000);

const API_ROOT = path.resolve(__dirname, '..');

/** The test database as a MONGODB_URI for a child process. */
function databaseUri(): string {
  const { host, port, name } = t.database.connection;
  return `mongodb://${host}:${port}/${name}?directConnection=true`;
}

/** Runs `npm run create-admin`'s script with `args`, `stdin` piped in; resolves on exit. */
function createAdminCli(args: string[], stdin: string, env: NodeJS.ProcessEnv = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/admin/cli.ts', ...args], {
      cwd: API_ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        BCRYPT_ROUNDS: '4',
        MONGODB_URI: databaseUri(),
        DATA_DIR: t.dataDir,
        ADMIN_PASSWORD: '',
        ...env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

async function signIn(email: string, password: string) {
  return t.http().post('/api/auth/login').send({ email, password });
}

describe('the reserved administrator id', () => {
  test('when 108 people register on an empty database, then nobody gets id 107: the ids go 1–106, then 108 and on', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 108; i += 1) {
      const res = await t
        .http()
        .post('/api/auth/register')
        .send({ name: `Student ${i}`, email: uniqueEmail('early'), password: 'long enough' });
      expect(res.status).toBe(201);
      ids.push(res.body.user.id);
    }
    expect(ids).not.toContain(t.config.adminUserId);
    expect(ids.slice(0, 106)).toEqual(Array.from({ length: 106 }, (_, i) => i + 1));
    expect(ids.slice(106)).toEqual([108, 109]);
    expect(await t.models.User.exists({ _id: 107 })).toBeNull();
    // 108 sign-ups one after the other (each a bcrypt hash and a mail): minutes on a busy machine.
  }, 180_000);
});

describe('provisionAdmin', () => {
  const ADMIN = 'head.of.campus@campus.edu';
  let firstToken = '';
  /** The command's writes, as `npm run create-admin` makes them: no app of its own. */
  const script = () => createScriptContext(t.models, t.config, createLogger('silent'));

  test('when there is no administrator, then user 107 is created, verified, and is the admin', async () => {
    const outcome = await provisionAdmin(script(), {
      adminUserId: 107,
      email: ADMIN,
      name: 'Campus Admin',
      passwordHash: await bcrypt.hash('first admin password', 4),
    });
    expect(outcome).toBe('created');
    const login = await signIn(ADMIN, 'first admin password');
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ id: 107, name: 'Campus Admin', email: ADMIN });
    firstToken = login.body.token;
    const me = await t.http().get('/api/auth/me').set('Authorization', `Bearer ${firstToken}`);
    expect(me.body.roles).toEqual(['member', 'admin']);
  });

  test('when the administrator exists, then its e-mail and password are reset and the old password no longer works', async () => {
    const outcome = await provisionAdmin(script(), {
      adminUserId: 107,
      email: 'new.admin@campus.edu',
      name: 'Ignored on reset',
      passwordHash: await bcrypt.hash('second admin password', 4),
    });
    expect(outcome).toBe('reset');
    // The sessions of before the reset are over, once the running API heard of it (its outbox).
    await t.caughtUp();
    const me = await t.http().get('/api/auth/me').set('Authorization', `Bearer ${firstToken}`);
    expect(me.status).toBe(401);
    expect((await signIn(ADMIN, 'first admin password')).status).toBe(401);
    const login = await signIn('new.admin@campus.edu', 'second admin password');
    expect(login.body.user).toMatchObject({ id: 107, name: 'Campus Admin' });
    const stored = await t.models.User.findById(107).lean();
    expect(stored).toMatchObject({ isVerified: true, verificationToken: null });
    expect(stored?.tokensValidAfter).toBeInstanceOf(Date);
  });

  test('when the e-mail belongs to a member, then nothing changes and the error says whose it is', async () => {
    const member = await t.createMember();
    await expect(
      provisionAdmin(script(), {
        adminUserId: 107,
        email: member.email,
        name: 'Admin',
        passwordHash: 'x',
      }),
    ).rejects.toThrow(`${member.email} already belongs to user ${member.id}`);
    expect((await t.models.User.findById(107).lean())?.email).toBe('new.admin@campus.edu');
  });
});

describe('npm run create-admin', () => {
  test('when the password is piped in, then the administrator is reset with it', async () => {
    const run = await createAdminCli(
      ['--email', 'piped.admin@campus.edu'],
      'piped admin password\n',
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Administrator reset: user 107, piped.admin@campus.edu');
    expect((await signIn('piped.admin@campus.edu', 'piped admin password')).status).toBe(200);
  });

  test('when ADMIN_PASSWORD is set, then it is used (stdin is not read)', async () => {
    const run = await createAdminCli(['--email', 'env.admin@campus.edu'], '', {
      ADMIN_PASSWORD: 'password from the environment',
    });
    expect(run.code).toBe(0);
    expect((await signIn('env.admin@campus.edu', 'password from the environment')).status).toBe(
      200,
    );
  });

  test.each([
    [['--email', 'x.admin@campus.edu', '--password', 'on the command line'], 'never taken from'],
    [['--email', 'x.admin@campus.edu', '--password=on-the-command-line'], 'never taken from'],
    [['--email', 'not an address'], 'Invalid e-mail'],
    [[], 'No --email'],
  ])('when run with %j, then it fails with a reason and changes nothing', async (args, reason) => {
    const before = await t.models.User.findById(107).lean();
    const run = await createAdminCli(args, 'some password\n');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(reason);
    expect(await t.models.User.findById(107).lean()).toEqual(before);
  });

  test('when the piped password is too short, then it fails with the registration rule', async () => {
    const run = await createAdminCli(['--email', 'short.admin@campus.edu'], 'short\n');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Password must be at least 8 characters');
  });
});
