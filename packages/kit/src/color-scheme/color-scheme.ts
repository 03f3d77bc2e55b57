// Issue 41, dark mode: the member's choice of colour scheme on this device. Plain DOM, no React,
// so the shell's first script (shell/src/early.ts) can apply it before the app has loaded. The
// colours themselves are CSS custom properties set per scheme by the kit's GlobalStyle
// (theme/theme.ts, colorSchemeCss): choosing one only sets `data-theme` on the root element.

export type ColorScheme = 'light' | 'dark';

/** What the member chose: follow the system (prefers-color-scheme), or always light or dark. */
export type ColorSchemePreference = 'system' | ColorScheme;

export const COLOR_SCHEME_PREFERENCES: readonly ColorSchemePreference[] = [
  'system',
  'light',
  'dark',
];

/** Kept on the device, not the account: a shared computer's choice is its own. */
export const COLOR_SCHEME_STORAGE_KEY = 'campus.color-scheme';

const DARK_QUERY = '(prefers-color-scheme: dark)';

const isPreference = (value: unknown): value is ColorSchemePreference =>
  COLOR_SCHEME_PREFERENCES.includes(value as ColorSchemePreference);

/** This device's choice; 'system' when none is stored (or storage cannot be read). */
export function readColorSchemePreference(): ColorSchemePreference {
  try {
    const stored = window.localStorage.getItem(COLOR_SCHEME_STORAGE_KEY);
    return isPreference(stored) ? stored : 'system';
  } catch {
    return 'system';
  }
}

/** Paints the page in `preference`: `data-theme` on the root element ('system': none). */
export function applyColorSchemePreference(
  preference: ColorSchemePreference,
  root: HTMLElement = document.documentElement,
): void {
  if (preference === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', preference);
}

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/** Stores the choice on this device and repaints every app on the page at once. */
export function setColorSchemePreference(preference: ColorSchemePreference): void {
  try {
    if (preference === 'system') window.localStorage.removeItem(COLOR_SCHEME_STORAGE_KEY);
    else window.localStorage.setItem(COLOR_SCHEME_STORAGE_KEY, preference);
  } catch {
    // Storage refused (a private window's quota): the choice holds for this page only.
  }
  applyColorSchemePreference(preference);
  notify();
}

/** Whether the system (the browser, the OS) prefers dark; false where it cannot say. */
export function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

/** The scheme the page is painted in now: the member's choice, or else the system's. */
export function currentColorScheme(): ColorScheme {
  const chosen = document.documentElement.getAttribute('data-theme');
  if (chosen === 'light' || chosen === 'dark') return chosen;
  return systemPrefersDark() ? 'dark' : 'light';
}

/**
 * Calls `onChange` whenever the scheme or the choice may have changed: a choice made on this page,
 * one made in another tab (a storage event) or the system's own switch. Returns the unsubscribe.
 */
export function subscribeColorScheme(onChange: () => void): () => void {
  listeners.add(onChange);
  const media = typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
  media?.addEventListener('change', onChange);
  const onStorage = (event: StorageEvent) => {
    if (event.key === COLOR_SCHEME_STORAGE_KEY || event.key === null) onChange();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(onChange);
    media?.removeEventListener('change', onChange);
    window.removeEventListener('storage', onStorage);
  };
}

/**
 * For the app that owns the page (the shell, a remote's standalone page): paints the stored
 * choice now and follows a choice made in another tab. Returns the stop.
 */
export function startColorScheme(): () => void {
  applyColorSchemePreference(readColorSchemePreference());
  return subscribeColorScheme(() => applyColorSchemePreference(readColorSchemePreference()));
}
