// What the global setup started, handed to the specs through environment variables.
export interface E2eEnvironment {
  shellUrl: string;
  apiUrl: string;
  dataDir: string;
  remotes: Record<'mf_feed' | 'mf_profile' | 'mf_notifications' | 'mf_admin', string>;
  /** The origin the shell's env.json lists in overrideOrigins (local runs only); nothing is served there at first. */
  previewOrigin?: string;
  /** What the server at previewOrigin serves: a spec builds a remote into it. */
  previewDir?: string;
}

export const E2E_ENV_KEY = 'CAMPUS_E2E_ENVIRONMENT';

export function e2eEnvironment(): E2eEnvironment {
  const raw = process.env[E2E_ENV_KEY];
  if (!raw) throw new Error('The e2e global setup did not run');
  return JSON.parse(raw) as E2eEnvironment;
}

/** The origin (scheme, host, port) a remote's manifest is served from. */
export function originOf(url: string): string {
  return new URL(url).origin;
}
