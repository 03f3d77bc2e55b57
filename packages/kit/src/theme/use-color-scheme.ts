import { useSyncExternalStore } from 'react';
import {
  currentColorScheme,
  readColorSchemePreference,
  setColorSchemePreference,
  subscribeColorScheme,
  type ColorScheme,
  type ColorSchemePreference,
} from '@campus/kit/color-scheme';
import { colorSchemes, type ColorPalette } from './theme';

/** This device's colour scheme choice and the function that changes it (Settings, Appearance). */
export function useColorSchemePreference(): [
  ColorSchemePreference,
  (preference: ColorSchemePreference) => void,
] {
  const preference = useSyncExternalStore(
    subscribeColorScheme,
    readColorSchemePreference,
    () => 'system' as const,
  );
  return [preference, setColorSchemePreference];
}

/** The scheme the page is painted in, following every change (the choice, the system's). */
export function useColorScheme(): ColorScheme {
  return useSyncExternalStore(subscribeColorScheme, currentColorScheme, () => 'light' as const);
}

/**
 * The current scheme's colours as plain values, for what cannot read a CSS custom property
 * (a chart library that computes shades from them). Styled components use `theme.colors`.
 */
export function useColorPalette(): ColorPalette {
  return colorSchemes[useColorScheme()];
}
