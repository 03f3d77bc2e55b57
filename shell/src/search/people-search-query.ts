import { useEffect, useState } from 'react';
import { USER_SEARCH_QUERY_MAX_LENGTH, callRoutes } from '@campus/contracts';
import { readCall } from '@campus/kit/api';
import { keys, useCallData } from '@campus/kit/data';

/** How long typing must pause before the people search asks the API. */
export const SEARCH_DEBOUNCE_MS = 250;

/** One people search, by its SWR key (`keys.peopleSearch(q)`): `GET /api/users?q=`. */
export function fetchPeople([, , q]: ReturnType<typeof keys.peopleSearch>) {
  return readCall(callRoutes.searchUsers, { query: { q } });
}

/** `value`, once it has stopped changing for `delay` ms. */
function useDebounced(value: string, delay: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/**
 * People whose name or e-mail starts with what the member typed (api/README.md "People search"),
 * asked once typing pauses; the previous answer stays on screen while the next one loads.
 */
export function usePeopleSearch(text: string) {
  const q = useDebounced(text.trim().slice(0, USER_SEARCH_QUERY_MAX_LENGTH), SEARCH_DEBOUNCE_MS);
  const result = useCallData(q ? keys.peopleSearch(q) : null, {
    fetcher: fetchPeople,
    keepPreviousData: true,
  });
  const typing = text.trim() !== q;
  return {
    q,
    people: q ? (result.data ?? null) : null,
    searching: Boolean(text.trim()) && (typing || result.isLoading || result.isValidating),
    error: q ? result.error : undefined,
    retry: () => void result.mutate(),
  };
}
