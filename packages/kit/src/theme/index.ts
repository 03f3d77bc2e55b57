export {
  theme,
  mediaMobile,
  mediaDesktop,
  MOBILE_BREAKPOINT_PX,
  MIN_TOUCH_TARGET_PX,
  touchTextTarget,
  touchHitArea,
  touchTallerBox,
} from './theme';
export type { CampusTheme } from './theme';
export { KitThemeProvider, GlobalStyle } from './theme-provider';
