import useSWR, { type SWRConfiguration, type SWRResponse } from 'swr';
import type { CallResponse } from '@campus/contracts';
import { getJson } from '@campus/kit/api';
import type { CallKey } from './keys';
import { keyToPath } from './swr-defaults';

/**
 * What a key holds: its call's response, or null once a 401/403 signed the member out (the
 * default read's rule, spec §7).
 */
export type KeyData<K extends CallKey> = CallResponse<NonNullable<K['~call']>> | null;

/** The default read of a key (spec §7): a GET on its parts joined with '/', typed by its call. */
export function readCallKey<K extends CallKey>(key: K): Promise<KeyData<K>> {
  return getJson<CallResponse<NonNullable<K['~call']>>>(keyToPath(key));
}

/** SWR's options for a key; `fetcher` replaces the page's default read of it. */
export type KeyDataConfig<K extends CallKey> = Omit<
  SWRConfiguration<KeyData<K>, Error>,
  'fetcher'
> & { fetcher?: (key: K) => Promise<KeyData<K>> };

/**
 * `useSWR` for a key of the call table (`keys.*`, or one made with `callKey`): its data is typed
 * by the key's call, read by the page's default fetcher (or `config.fetcher`) with the page's SWR
 * defaults. A null key keeps the hook idle.
 */
export function useCallData<K extends CallKey>(
  key: K | null,
  config: KeyDataConfig<K> = {},
): SWRResponse<KeyData<K>, Error> {
  return useSWR<KeyData<K>, Error>(key, config as SWRConfiguration<KeyData<K>, Error>);
}
