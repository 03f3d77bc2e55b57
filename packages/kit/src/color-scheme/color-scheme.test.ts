import {
  COLOR_SCHEME_STORAGE_KEY,
  currentColorScheme,
  readColorSchemePreference,
  setColorSchemePreference,
  startColorScheme,
  subscribeColorScheme,
} from '@campus/kit/color-scheme';

const root = document.documentElement;

/** A system whose colour scheme the test switches: matchMedia with its change listeners. */
function fakeSystem(prefersDark: boolean) {
  const listeners = new Set<() => void>();
  const list = {
    get matches() {
      return prefersDark;
    },
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  window.matchMedia = ((query: string) => {
    expect(query).toBe('(prefers-color-scheme: dark)');
    return list;
  }) as unknown as typeof window.matchMedia;
  return {
    listeners,
    switchTo(dark: boolean) {
      prefersDark = dark;
      listeners.forEach((listener) => listener());
    },
  };
}

const originalMatchMedia = window.matchMedia;
afterEach(() => {
  window.matchMedia = originalMatchMedia;
  window.localStorage.clear();
  root.removeAttribute('data-theme');
});

describe('the colour scheme choice', () => {
  it('when nothing (or nonsense) is stored, then the choice is to follow the system', () => {
    expect(readColorSchemePreference()).toBe('system');
    window.localStorage.setItem(COLOR_SCHEME_STORAGE_KEY, 'purple');
    expect(readColorSchemePreference()).toBe('system');
  });

  it('when dark or light is chosen, then it is stored, painted on the root element and announced; system removes both', () => {
    const heard = jest.fn();
    const stop = subscribeColorScheme(heard);
    setColorSchemePreference('dark');
    expect(window.localStorage.getItem(COLOR_SCHEME_STORAGE_KEY)).toBe('dark');
    expect(root).toHaveAttribute('data-theme', 'dark');
    expect(readColorSchemePreference()).toBe('dark');
    setColorSchemePreference('light');
    expect(root).toHaveAttribute('data-theme', 'light');
    setColorSchemePreference('system');
    expect(window.localStorage.getItem(COLOR_SCHEME_STORAGE_KEY)).toBeNull();
    expect(root).not.toHaveAttribute('data-theme');
    expect(heard).toHaveBeenCalledTimes(3);
    stop();
    setColorSchemePreference('dark');
    expect(heard).toHaveBeenCalledTimes(3);
  });

  it("when the member follows the system, then the page's scheme is the system's and follows its switch", () => {
    const system = fakeSystem(true);
    const heard = jest.fn();
    const stop = subscribeColorScheme(heard);
    expect(currentColorScheme()).toBe('dark');
    system.switchTo(false);
    expect(heard).toHaveBeenCalledTimes(1);
    expect(currentColorScheme()).toBe('light');
    stop();
    expect(system.listeners.size).toBe(0);
  });

  it("when the member chose a scheme, then it wins over the system's", () => {
    fakeSystem(true);
    setColorSchemePreference('light');
    expect(currentColorScheme()).toBe('light');
    fakeSystem(false);
    setColorSchemePreference('dark');
    expect(currentColorScheme()).toBe('dark');
  });

  it('when the app starts, then it paints the stored choice and follows a choice made in another tab', () => {
    window.localStorage.setItem(COLOR_SCHEME_STORAGE_KEY, 'dark');
    const stop = startColorScheme();
    expect(root).toHaveAttribute('data-theme', 'dark');
    window.localStorage.setItem(COLOR_SCHEME_STORAGE_KEY, 'light');
    window.dispatchEvent(new StorageEvent('storage', { key: COLOR_SCHEME_STORAGE_KEY }));
    expect(root).toHaveAttribute('data-theme', 'light');
    window.localStorage.removeItem(COLOR_SCHEME_STORAGE_KEY);
    window.dispatchEvent(new StorageEvent('storage', { key: COLOR_SCHEME_STORAGE_KEY }));
    expect(root).not.toHaveAttribute('data-theme');
    stop();
    window.localStorage.setItem(COLOR_SCHEME_STORAGE_KEY, 'dark');
    window.dispatchEvent(new StorageEvent('storage', { key: COLOR_SCHEME_STORAGE_KEY }));
    expect(root).not.toHaveAttribute('data-theme');
  });
});
