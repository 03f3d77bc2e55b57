/**
 * API_ENV_FILE: a file of `NAME=value` lines (the syntax of systemd's EnvironmentFile and of
 * dotenv files, read with node's own `util.parseEnv`) whose variables the API runs with, on top
 * of its environment: a variable the file sets wins over the same variable in the environment.
 *
 * It is read when the API starts and, with API_PROCESSES > 1, again by the main process on
 * SIGHUP, before it replaces its processes one at a time (platform/processes.ts): a changed
 * JWT_SECRET, JWT_PREVIOUS_SECRETS or any other variable reaches every process without an outage.
 * A variable removed from the file is gone after the reload too (unless the environment sets it).
 * The file is the place for settings that change (systemd's EnvironmentFile= is read only when
 * the unit starts: a reload would not see a change there).
 */
import fs from 'node:fs';
import { parseEnv } from 'node:util';

/** The file cannot be read: the message names it and why, for whoever deploys. */
export class EnvFileError extends Error {}

/** `env` with the variables of the file it names in API_ENV_FILE on top (none: `env` itself). */
export function withEnvFile(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const file = env.API_ENV_FILE?.trim();
  if (!file) return env;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    // ENOENT, EACCES...: the reason in the system's own words.
    const reason = (err as NodeJS.ErrnoException | null)?.code ?? String(err);
    throw new EnvFileError(`API_ENV_FILE: cannot read ${file} (${reason})`);
  }
  const fromFile = parseEnv(text);
  // The file names no other file: API_ENV_FILE stays what the environment said.
  delete fromFile.API_ENV_FILE;
  return { ...env, ...fromFile };
}
