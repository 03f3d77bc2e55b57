export {
  theme,
  colorSchemes,
  colorSchemeCss,
  colorProperty,
  mediaMobile,
  mediaDesktop,
  MOBILE_BREAKPOINT_PX,
  MIN_TOUCH_TARGET_PX,
  touchTextTarget,
  touchHitArea,
  touchTallerBox,
} from './theme';
export type { CampusTheme, ColorName, ColorPalette } from './theme';
export { KitThemeProvider, GlobalStyle } from './theme-provider';
export { useColorPalette, useColorScheme, useColorSchemePreference } from './use-color-scheme';
