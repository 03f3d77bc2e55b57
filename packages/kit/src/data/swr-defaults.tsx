import type { ReactNode } from 'react';
import { SWRConfig, type SWRConfiguration } from 'swr';
import { getJson } from '@campus/kit/api';

export function keyToPath(key: unknown): string {
  if (Array.isArray(key)) return key.join('/');
  if (typeof key === 'string') return key;
  throw new TypeError(`Unsupported SWR key: ${String(key)}`);
}

/** The default read: a GET on the key parts joined with '/', parsed as JSON (spec §7). */
export function fetchKey<T>(key: unknown): Promise<T | null> {
  return getJson<T>(keyToPath(key));
}

/**
 * Spec §7: no interval, no refetch on focus or reconnect, no retries, and cached data is never
 * stale by default (a mounted hook does not refetch what the cache already holds).
 */
export const swrDefaults = {
  fetcher: fetchKey,
  refreshInterval: 0,
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  revalidateIfStale: false,
  shouldRetryOnError: false,
  errorRetryCount: 0,
} satisfies SWRConfiguration;

/** The one SWR cache of the page, mounted by the shell; every remote reads through it. */
export function DataProvider({ children }: { children: ReactNode }) {
  return <SWRConfig value={{ ...swrDefaults, provider: () => new Map() }}>{children}</SWRConfig>;
}
