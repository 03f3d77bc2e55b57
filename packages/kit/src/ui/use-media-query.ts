import { useCallback, useSyncExternalStore } from 'react';

/**
 * Whether the viewport matches a CSS media query (e.g. the theme's `mediaMobile`, with or without
 * its `@media`), following its changes. Where `matchMedia` does not exist (a test DOM),
 * `fallback`.
 */
export function useMediaQuery(media: string, fallback = false): boolean {
  const query = media.replace(/^@media\s+/, '');
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  const matches = () =>
    typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : fallback;
  return useSyncExternalStore(subscribe, matches, () => fallback);
}
