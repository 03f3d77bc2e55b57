// `npm run create-admin -w api -- --email admin@campus.example [--name "Campus Admin"]`: creates
// the administrator (user ADMIN_USER_ID) or resets its e-mail and password. The password is never
// an argument: ADMIN_PASSWORD, typed on a terminal, or the first line of stdin.
import { parseArgs } from 'node:util';
import bcrypt from 'bcrypt';
import { displayNameSchema, emailSchema } from '@campus/contracts';
import { migrateDatabase } from '../migrations/run';
import { createModels } from '../models';
import { createScriptContext } from '../app-context';
import { loadConfig } from '../platform/config';
import { openDatabase } from '../platform/db';
import { withEnvFile } from '../platform/env-file';
import { createLogger } from '../platform/logger';
import { readAdminPassword } from './password-input';
import { provisionAdmin } from './provision-admin';

const USAGE =
  'Usage: npm run create-admin -w api -- --email <address> [--name <display name>]\n' +
  'The password is read from ADMIN_PASSWORD, typed on a terminal, or the first line of stdin.';

async function run(): Promise<void> {
  if (process.argv.some((arg) => /^--?pass(word)?(=|$)/i.test(arg))) {
    throw new Error(
      'The password is never taken from the command line (shell history, ps): ' +
        'type it when asked, pipe it on stdin, or set ADMIN_PASSWORD',
    );
  }
  const { values } = parseArgs({
    options: { email: { type: 'string' }, name: { type: 'string', default: 'Administrator' } },
  });
  const email = emailSchema.safeParse(values.email ?? '');
  if (!values.email || !email.success) {
    throw new Error(
      `${values.email ? `Invalid e-mail "${values.email}"` : 'No --email'}\n${USAGE}`,
    );
  }
  const name = displayNameSchema.safeParse(values.name);
  if (!name.success) throw new Error(name.error.issues[0]?.message ?? 'Invalid --name');
  const password = await readAdminPassword(process.env, process.stdin, process.stdout);

  // The API's own settings: its environment, with API_ENV_FILE's variables on top.
  const config = loadConfig(withEnvFile(process.env));
  const logger = createLogger(config.logLevel);
  const database = await openDatabase({
    ...config,
    logger,
    models: createModels,
    buildIndexes: false,
  });
  // As the API's start does (and waiting for it, when it starts at the same time).
  await migrateDatabase(database, { logger }).catch(async (err: unknown) => {
    await database.close();
    throw err;
  });
  try {
    const outcome = await provisionAdmin(createScriptContext(database.models, config, logger), {
      adminUserId: config.adminUserId,
      email: email.data,
      name: name.data,
      passwordHash: await bcrypt.hash(password, config.bcryptRounds),
    });
    process.stdout.write(
      `Administrator ${outcome === 'created' ? 'created' : 'reset'}: user ${config.adminUserId}, ${email.data}\n`,
    );
  } finally {
    await database.close();
  }
}

run().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
