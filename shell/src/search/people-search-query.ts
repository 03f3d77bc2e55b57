import { useEffect, useState } from 'react';
import useSWR from 'swr';
import { USER_SEARCH_QUERY_MAX_LENGTH, type UserSearchResult } from '@campus/contracts';
import { getJson } from '@campus/kit/api';

/** How long typing must pause before the people search asks the API. */
export const SEARCH_DEBOUNCE_MS = 250;

/** The SWR key of one people search (`GET /api/users?q=`). */
export const peopleSearchKey = (q: string) => ['/api/users', 'search', q] as const;

export function fetchPeople([, , q]: ReturnType<typeof peopleSearchKey>) {
  return getJson<UserSearchResult>(`/api/users?q=${encodeURIComponent(q)}`);
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
  const result = useSWR(q ? peopleSearchKey(q) : null, fetchPeople, { keepPreviousData: true });
  const typing = text.trim() !== q;
  return {
    q,
    people: q ? (result.data ?? null) : null,
    searching: Boolean(text.trim()) && (typing || result.isLoading || result.isValidating),
    error: q ? result.error : undefined,
    retry: () => void result.mutate(),
  };
}
