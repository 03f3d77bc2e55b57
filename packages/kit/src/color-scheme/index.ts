// The device's colour scheme choice (issue 41, dark mode), without React: the shell's first script
// applies it. The React hooks are in '@campus/kit/theme'.
export {
  COLOR_SCHEME_PREFERENCES,
  COLOR_SCHEME_STORAGE_KEY,
  applyColorSchemePreference,
  currentColorScheme,
  readColorSchemePreference,
  setColorSchemePreference,
  startColorScheme,
  subscribeColorScheme,
  systemPrefersDark,
} from './color-scheme';
export type { ColorScheme, ColorSchemePreference } from './color-scheme';
