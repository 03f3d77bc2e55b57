/**
 * What the shell's start reads to know whether this browser asks for remote overrides at all
 * (remote-overrides.ts): the query parameter that sets one and the storage key that keeps them.
 * Without either, the overrides code and its banner are never fetched.
 */
export const OVERRIDE_PARAM = 'mf-override';
export const OVERRIDES_STORAGE_KEY = 'campus.mf-overrides';

/** Whether this page's URL or this browser's storage holds any remote override to apply. */
export function overridesRequested({
  search,
  storage,
}: {
  search: string;
  storage: Storage;
}): boolean {
  if (new URLSearchParams(search).has(OVERRIDE_PARAM)) return true;
  try {
    return storage.getItem(OVERRIDES_STORAGE_KEY) !== null;
  } catch {
    return false;
  }
}
