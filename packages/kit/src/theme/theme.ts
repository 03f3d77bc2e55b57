/** Spec §9: the mobile layout applies below 768 px. */
export const MOBILE_BREAKPOINT_PX = 768;

/** One spacing unit is 4 px (so the 60-unit sidebar is 240 px wide). */
const space = (units: number) => `${units * 4}px`;

export const theme = {
  space,
  breakpoints: { mobile: MOBILE_BREAKPOINT_PX },
  colors: {
    background: '#f8fafc',
    surface: '#ffffff',
    surfaceMuted: '#f1f5f9',
    border: '#e2e8f0',
    text: '#0f172a',
    textMuted: '#475569',
    primary: '#1d4ed8',
    primaryHover: '#1e40af',
    onPrimary: '#ffffff',
    danger: '#b91c1c',
    onDanger: '#ffffff',
    success: '#15803d',
    focus: '#2563eb',
    skeleton: '#e2e8f0',
  },
  radius: { sm: '4px', md: '8px', lg: '12px', full: '9999px' },
  shadow: {
    sm: '0 1px 2px rgb(15 23 42 / 0.08)',
    lg: '0 10px 30px rgb(15 23 42 / 0.18)',
  },
  font: {
    body: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  },
} as const;

export type CampusTheme = typeof theme;

export const mediaMobile = `@media (max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`;

/**
 * The smallest hit area of a control on a phone (below the mobile breakpoint), in CSS px: a
 * fingertip's target (WCAG 2.5.5; issue 41). e2e/specs/touch-targets.spec.ts checks every page.
 */
export const MIN_TOUCH_TARGET_PX = 44;

/**
 * Styles (for a styled-components template) that make a link or a text-like button a fingertip's
 * target on a phone: an inline flex box at least MIN_TOUCH_TARGET_PX square, its words centred
 * vertically. Its look is unchanged; the space around it grows. Nothing changes on wider screens.
 */
export const touchTextTarget = `${mediaMobile} {
  display: inline-flex;
  align-items: center;
  min-width: ${MIN_TOUCH_TARGET_PX}px;
  min-height: ${MIN_TOUCH_TARGET_PX}px;
}`;

/**
 * Styles that give a small control inside a line of text (a post's time, its "edited" mark) a
 * fingertip's hit area on a phone without moving anything: an invisible ::after at least
 * MIN_TOUCH_TARGET_PX square, centred on it. Not for an element that clips (overflow: hidden),
 * which would clip its ::after too.
 */
export const touchHitArea = `${mediaMobile} {
  position: relative;
  &::after {
    content: '';
    position: absolute;
    top: calc(50% - ${MIN_TOUCH_TARGET_PX / 2}px);
    left: calc(50% - max(50%, ${MIN_TOUCH_TARGET_PX / 2}px));
    width: max(100%, ${MIN_TOUCH_TARGET_PX}px);
    height: ${MIN_TOUCH_TARGET_PX}px;
  }
}`;

/**
 * The same for an element that clips its text (an ellipsis): its own box grows to
 * MIN_TOUCH_TARGET_PX tall on a phone, negative margins keeping the line's height.
 */
export const touchTallerBox = `${mediaMobile} {
  padding-block: calc((${MIN_TOUCH_TARGET_PX}px - 1lh) / 2);
  margin-block: calc((1lh - ${MIN_TOUCH_TARGET_PX}px) / 2);
}`;
export const mediaDesktop = `@media (min-width: ${MOBILE_BREAKPOINT_PX}px)`;

declare module 'styled-components' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface DefaultTheme extends CampusTheme {}
}
