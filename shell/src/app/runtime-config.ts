export const REMOTE_NAMES = ['mf_feed', 'mf_profile', 'mf_notifications', 'mf_admin'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

/**
 * `/env.json`, served next to the shell: where the API and each remote's manifest live. Nothing
 * of this is compiled in, so a remote can move or be redeployed without rebuilding the shell.
 */
export interface RuntimeConfig {
  apiUrl: string;
  remotes: Record<RemoteName, string>;
  /**
   * Origins a feature team may load a build of its remote from, in its own browser only
   * (`?mf-override=mf_feed=<manifest URL>`, composition/remote-overrides.ts). Absent or empty:
   * no override is accepted.
   */
  overrideOrigins?: string[];
}

function fail(why: string): never {
  throw new Error(`env.json: ${why}`);
}

/**
 * Checks a parsed env.json: apiUrl a string, every remote a non-empty string, overrideOrigins an
 * optional list of strings; anything else in it is left out. Written out rather than as a zod
 * schema: it runs at every start-up, and the shell's first load carries no zod (BENCHMARKS.md,
 * "zod left the signed-in first load").
 */
export function parseRuntimeConfig(value: unknown): RuntimeConfig {
  if (typeof value !== 'object' || value === null) fail('must be an object');
  const { apiUrl, remotes, overrideOrigins } = value as Record<string, unknown>;
  if (typeof apiUrl !== 'string') fail('apiUrl must be a string');
  if (typeof remotes !== 'object' || remotes === null) fail('remotes must be an object');
  const named = remotes as Record<string, unknown>;
  const checked = {} as Record<RemoteName, string>;
  for (const name of REMOTE_NAMES) {
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
