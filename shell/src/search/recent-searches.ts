import { useCallback, useState } from 'react';

/** Where the device keeps the member's recent searches (issue 40), newest first. */
export const RECENT_SEARCHES_KEY = 'campus.recentSearches';
export const RECENT_SEARCHES_LIMIT = 10;

function read(): string[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(RECENT_SEARCHES_KEY) ?? '[]');
    return Array.isArray(parsed)
      ? parsed
          .filter((item): item is string => typeof item === 'string')
          .slice(0, RECENT_SEARCHES_LIMIT)
      : [];
  } catch {
    return []; // unreadable or unavailable storage: no recent searches, never a broken page
  }
}

function write(searches: string[]): void {
  try {
    if (searches.length === 0) window.localStorage.removeItem(RECENT_SEARCHES_KEY);
    else window.localStorage.setItem(RECENT_SEARCHES_KEY, JSON.stringify(searches));
  } catch {
    // storage full or refused (private browsing): the list lives on for this page only
  }
}

/**
 * The member's last searches on this device (localStorage, at most 10, newest first, each once
 * whatever its case), to run again in one tap, and a way to forget them all.
 */
export function useRecentSearches() {
  const [searches, setSearches] = useState<string[]>(read);

  const remember = useCallback((q: string) => {
    const text = q.trim();
    if (!text) return;
    const next = [
      text,
      ...read().filter((item) => item.toLocaleLowerCase() !== text.toLocaleLowerCase()),
    ].slice(0, RECENT_SEARCHES_LIMIT);
    write(next);
    setSearches(next);
  }, []);

  const clear = useCallback(() => {
    write([]);
    setSearches([]);
  }, []);

  return { searches, remember, clear };
}
