import useSWR, { type SWRResponse } from 'swr';
import { getJson } from '@campus/kit/api';
import { keys, type ApiKey } from './keys';
import { keyToPath } from './swr-defaults';

export interface Settings {
  logo_url?: string;
  [key: string]: unknown;
}

/** Spec §9: settings are cached for 60 seconds. */
const SETTINGS_FRESH_MS = 60_000;

export function getSettings(): Promise<Settings | null> {
  return getJson<Settings>(keyToPath(keys.settings()));
}

// Annotated because the kit's declarations are emitted (tsc -b) and SWR's inferred type is not nameable.
export function useSettings(): SWRResponse<Settings | null, Error> {
  return useSWR<Settings | null, Error, ApiKey>(keys.settings(), getSettings, {
    revalidateIfStale: true,
    dedupingInterval: SETTINGS_FRESH_MS,
  });
}
