import { parseRuntimeConfig, type RuntimeConfig } from '../app/runtime-config';
import { readJsonFile, takeEarlyRuntimeConfig } from './early-requests';

/**
 * Reads `/env.json`. A plain request (the server answers `no-cache` with an ETag, so it is
 * revalidated every time and a 304 when unchanged) that the `<link rel="preload">` in index.html
 * has already started, while the scripts were still arriving; the entry script reads it
 * (early-requests.ts) and this takes that answer rather than asking again.
 */
export async function fetchRuntimeConfig(url = '/env.json'): Promise<RuntimeConfig> {
  const early = url === '/env.json' ? takeEarlyRuntimeConfig() : null;
  return parseRuntimeConfig(await (early ?? readJsonFile(url)));
}
