import { z } from 'zod';

export const REMOTE_NAMES = ['mf_feed', 'mf_profile', 'mf_notifications', 'mf_admin'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

/**
 * `/env.json`, served next to the shell: where the API and each remote's manifest live. Nothing
 * of this is compiled in, so a remote can move or be redeployed without rebuilding the shell.
 */
const runtimeConfigSchema = z.object({
  apiUrl: z.string(),
  remotes: z.object({
    mf_feed: z.string().min(1),
    mf_profile: z.string().min(1),
    mf_notifications: z.string().min(1),
    mf_admin: z.string().min(1),
  }),
  /**
   * Origins a feature team may load a build of its remote from, in its own browser only
   * (`?mf-override=mf_feed=<manifest URL>`, composition/remote-overrides.ts). Absent or empty:
   * no override is accepted.
   */
  overrideOrigins: z.array(z.string()).optional(),
});

export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

export function parseRuntimeConfig(value: unknown): RuntimeConfig {
  return runtimeConfigSchema.parse(value);
}

export async function loadRuntimeConfig(url = '/env.json'): Promise<RuntimeConfig> {
  const response = await fetch(url, { cache: 'no-store' });
  if (!response.ok) throw new Error(`${response.status}: ${response.statusText}`);
  return parseRuntimeConfig(await response.json());
}
