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
export const mediaDesktop = `@media (min-width: ${MOBILE_BREAKPOINT_PX}px)`;

declare module 'styled-components' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface DefaultTheme extends CampusTheme {}
}
