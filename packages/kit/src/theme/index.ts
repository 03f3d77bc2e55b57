export { theme, mediaMobile, mediaDesktop, MOBILE_BREAKPOINT_PX } from './theme';
export type { CampusTheme } from './theme';
export { KitThemeProvider, GlobalStyle } from './theme-provider';
