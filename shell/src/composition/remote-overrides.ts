import { REMOTE_NAMES, type RemoteName, type RuntimeConfig } from '../app/runtime-config';
import { OVERRIDE_PARAM, OVERRIDES_STORAGE_KEY } from './override-request';

/**
 * A feature team tries a new build of its remote against the deployed shell, in its own browser
 * only: `?mf-override=mf_feed=https://preview.example/mf-manifest.json` (repeatable) replaces
 * that remote's manifest URL for this browser, until cleared. Only URLs whose origin the shell's
 * runtime config lists in `overrideOrigins` are accepted: the remote's code runs with the
 * member's session, so nobody can be sent a link that loads code from anywhere else.
 */
export { OVERRIDE_PARAM, OVERRIDES_STORAGE_KEY };

export interface RemoteOverride {
  remote: RemoteName;
  url: string;
}

export interface RefusedOverride {
  /** What was asked for, as written. */
  request: string;
  reason: string;
}

export interface RemoteOverrides {
  /** The manifest URL of every remote, overrides applied. */
  remotes: RuntimeConfig['remotes'];
  active: RemoteOverride[];
  refused: RefusedOverride[];
}

function isRemoteName(name: string): name is RemoteName {
  return (REMOTE_NAMES as readonly string[]).includes(name);
}

/** The origins overrides may come from, normalised (`https://preview.example:8443`). */
function allowedOrigins(config: RuntimeConfig): Set<string> {
  const origins = new Set<string>();
  for (const origin of config.overrideOrigins ?? []) {
    try {
      origins.add(new URL(origin).origin);
    } catch {
      // not a URL: matches nothing
    }
  }
  return origins;
}

/** Why `url` may not replace a manifest URL, or null when it may. */
function refusal(url: string, origins: Set<string>): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'it is not an absolute URL';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return 'it is not an http(s) URL';
  if (!origins.has(parsed.origin)) {
    return `${parsed.origin} is not in this shell's overrideOrigins`;
  }
  return null;
}

function readStored(storage: Storage): Partial<Record<RemoteName, string>> {
  try {
    const value: unknown = JSON.parse(storage.getItem(OVERRIDES_STORAGE_KEY) ?? '{}');
    if (!value || typeof value !== 'object') return {};
    const stored: Partial<Record<RemoteName, string>> = {};
    for (const [remote, url] of Object.entries(value)) {
      if (isRemoteName(remote) && typeof url === 'string') stored[remote] = url;
    }
    return stored;
  } catch {
    return {};
  }
}

function writeStored(storage: Storage, overrides: Partial<Record<RemoteName, string>>) {
  if (Object.keys(overrides).length === 0) storage.removeItem(OVERRIDES_STORAGE_KEY);
  else storage.setItem(OVERRIDES_STORAGE_KEY, JSON.stringify(overrides));
}

/**
 * Applies the overrides stored in this browser and any new ones in `search` (then stored), each
 * checked against the config's `overrideOrigins` every time: an origin taken off the list stops
 * working at the next page load. Returns the remotes to register and what to show in the banner.
 */
export function resolveRemoteOverrides(
  config: RuntimeConfig,
  { search, storage }: { search: string; storage: Storage },
): RemoteOverrides {
  const origins = allowedOrigins(config);
  const refused: RefusedOverride[] = [];
  const stored = readStored(storage);
  const accepted: Partial<Record<RemoteName, string>> = {};

  for (const [remote, url] of Object.entries(stored) as [RemoteName, string][]) {
    const why = refusal(url, origins);
    if (why) refused.push({ request: `${remote}=${url}`, reason: `${why}; it was removed` });
    else accepted[remote] = url;
  }
  for (const request of new URLSearchParams(search).getAll(OVERRIDE_PARAM)) {
    const separator = request.indexOf('=');
    const remote = separator > 0 ? request.slice(0, separator) : request;
    const url = separator > 0 ? request.slice(separator + 1) : '';
    if (!isRemoteName(remote)) {
      refused.push({
        request,
        reason: `write ${OVERRIDE_PARAM}=<remote>=<manifest URL>, the remote one of ${REMOTE_NAMES.join(', ')}`,
      });
      continue;
    }
    const why = refusal(url, origins);
    if (why) refused.push({ request, reason: why });
    else accepted[remote] = url;
  }
  writeStored(storage, accepted);
  for (const { request, reason } of refused) {
    console.warn(`Remote override refused: ${request}: ${reason}`);
  }
  return {
    remotes: { ...config.remotes, ...accepted },
    active: (Object.entries(accepted) as [RemoteName, string][]).map(([remote, url]) => ({
      remote,
      url,
    })),
    refused,
  };
}

/** Removes one remote's override from this browser (the page must reload to drop its code). */
export function clearRemoteOverride(storage: Storage, remote: RemoteName): void {
  const stored = readStored(storage);
  delete stored[remote];
  writeStored(storage, stored);
}

/** The page's URL without the override parameter, so a reload or a shared link does not repeat it. */
export function withoutOverrideParam(href: string): string {
  const url = new URL(href);
  url.searchParams.delete(OVERRIDE_PARAM);
  return url.toString();
}
