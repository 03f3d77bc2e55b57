import type { SWRResponse } from 'swr';
import { readCallKey, useCallData, type KeyData } from './call-data';
import { keys } from './keys';

/**
 * The settings as the kit first typed them, looser than the API's answer.
 * @deprecated Read `CallResponse<typeof callRoutes.settings>` (contracts' `Settings`) instead.
 */
export interface Settings {
  logo_url?: string;
  [key: string]: unknown;
}

type SettingsData = KeyData<ReturnType<typeof keys.settings>>;

/** Spec §9: settings are cached for 60 seconds. */
const SETTINGS_FRESH_MS = 60_000;

export function getSettings(): Promise<SettingsData> {
  return readCallKey(keys.settings());
}

export function useSettings(): SWRResponse<SettingsData, Error> {
  return useCallData(keys.settings(), {
    fetcher: getSettings,
    revalidateIfStale: true,
    dedupingInterval: SETTINGS_FRESH_MS,
  });
}
