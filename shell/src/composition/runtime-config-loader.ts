import type { RemoteName, RuntimeConfig } from '../app/runtime-config';
import { readJsonFile, takeEarlyRuntimeConfig } from './early-requests';

/**
 * The remotes env.json names (app/runtime-config.ts's REMOTE_NAMES, repeated here because that
 * module builds its zod schema when it is evaluated: the shell's first load carries no zod).
 */
export const RUNTIME_REMOTE_NAMES = [
  'mf_feed',
  'mf_profile',
  'mf_notifications',
  'mf_admin',
] as const satisfies readonly RemoteName[];

function fail(why: string): never {
  throw new Error(`env.json: ${why}`);
}

/**
 * Checks a parsed env.json by hand, with the rules of app/runtime-config.ts's schema (apiUrl a
 * string, every remote a non-empty string, overrideOrigins an optional list of strings); the two
 * are tested against each other (runtime-config-loader.test.ts).
 */
export function checkRuntimeConfig(value: unknown): RuntimeConfig {
  if (typeof value !== 'object' || value === null) fail('must be an object');
  const { apiUrl, remotes, overrideOrigins } = value as Record<string, unknown>;
  if (typeof apiUrl !== 'string') fail('apiUrl must be a string');
  if (typeof remotes !== 'object' || remotes === null) fail('remotes must be an object');
  const named = remotes as Record<string, unknown>;
  const checked = {} as Record<RemoteName, string>;
  for (const name of RUNTIME_REMOTE_NAMES) {
    const url = named[name];
    if (typeof url !== 'string' || url.length === 0) fail(`remotes.${name} must be a URL`);
    checked[name] = url;
  }
  if (
    overrideOrigins !== undefined &&
    (!Array.isArray(overrideOrigins) || overrideOrigins.some((o) => typeof o !== 'string'))
  ) {
    fail('overrideOrigins must be a list of origins');
  }
  return {
    apiUrl,
    remotes: checked,
    ...(overrideOrigins === undefined ? {} : { overrideOrigins: overrideOrigins as string[] }),
  };
}

/**
 * Reads `/env.json`. A plain request (the server answers `no-cache` with an ETag, so it is
 * revalidated every time and a 304 when unchanged) that the `<link rel="preload">` in index.html
 * has already started, while the scripts were still arriving; the entry script reads it
 * (early-requests.ts) and this takes that answer rather than asking again.
 */
export async function fetchRuntimeConfig(url = '/env.json'): Promise<RuntimeConfig> {
  const early = url === '/env.json' ? takeEarlyRuntimeConfig() : null;
  return checkRuntimeConfig(await (early ?? readJsonFile(url)));
}
