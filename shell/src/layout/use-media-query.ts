import { useSyncExternalStore } from 'react';

/**
 * Whether the viewport matches a CSS media query (`mediaMobile` from the kit's theme, with or
 * without its `@media`), following its changes. Where `matchMedia` does not exist (a test DOM),
 * `fallback`.
 */
export function useMediaQuery(media: string, fallback: boolean): boolean {
  const query = media.replace(/^@media\s+/, '');
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => (typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : fallback),
    () => fallback,
  );
}
