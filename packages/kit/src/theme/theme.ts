import type { ColorScheme } from '@campus/kit/color-scheme';

/** Spec §9: the mobile layout applies below 768 px. */
export const MOBILE_BREAKPOINT_PX = 768;

/** One spacing unit is 4 px (so the 60-unit sidebar is 240 px wide). */
const space = (units: number) => `${units * 4}px`;

/**
 * Each scheme's colours. Every pair a page puts together meets WCAG AA in both: text, textMuted,
 * primary, danger and success on background, surface, surfaceMuted and highlight; onPrimary on
 * primary and primaryHover; onDanger on danger; onNotice on notice (axe checks the pages in both
 * schemes: e2e/specs/a11y.spec.ts).
 */
export const colorSchemes = {
  light: {
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
    /** Something new to the member (an unread notification). */
    highlight: '#eff6ff',
    /** A notice that is neither an error nor a success ("Under Construction"). */
    notice: '#fef3c7',
    onNotice: '#92400e',
    /** The page behind a dialog. */
    overlay: 'rgb(15 23 42 / 0.5)',
    shadowSm: 'rgb(15 23 42 / 0.08)',
    shadowLg: 'rgb(15 23 42 / 0.18)',
  },
  dark: {
    background: '#0b1120',
    surface: '#111827',
    surfaceMuted: '#1e293b',
    border: '#334155',
    text: '#f1f5f9',
    textMuted: '#a9b6c8',
    primary: '#93c5fd',
    primaryHover: '#bfdbfe',
    onPrimary: '#0f172a',
    danger: '#fca5a5',
    onDanger: '#0f172a',
    success: '#86efac',
    focus: '#93c5fd',
    skeleton: '#334155',
    highlight: '#172554',
    notice: '#422006',
    onNotice: '#fde68a',
    overlay: 'rgb(2 6 23 / 0.7)',
    shadowSm: 'rgb(0 0 0 / 0.4)',
    shadowLg: 'rgb(0 0 0 / 0.6)',
  },
} as const satisfies Record<ColorScheme, Record<string, string>>;

export type ColorName = keyof (typeof colorSchemes)['light'];
export type ColorPalette = Record<ColorName, string>;

/** The CSS custom property that holds a colour: `surfaceMuted` is `--campus-color-surface-muted`. */
export const colorProperty = (name: ColorName) =>
  `--campus-color-${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/**
 * The theme's colours are the custom properties, so one styled-components template serves both
 * schemes and a switch repaints without re-rendering: the kit's GlobalStyle (colorSchemeCss)
 * sets them. Each falls back to its light value where no GlobalStyle is mounted.
 */
const colors = Object.fromEntries(
  Object.entries(colorSchemes.light).map(([name, value]) => [
    name,
    `var(${colorProperty(name as ColorName)}, ${value})`,
  ]),
) as Record<ColorName, string>;

const declarations = (palette: ColorPalette) =>
  (Object.keys(palette) as ColorName[])
    .map((name) => `${colorProperty(name)}: ${palette[name]};`)
    .join(' ');

/**
 * The page-wide CSS of the schemes: light by default; dark when the system prefers it and the
 * member has not chosen light (`data-theme="light"` on the root element), or when they chose dark
 * (`data-theme="dark"`). `color-scheme` makes the browser's own parts (form controls, scroll
 * bars) follow. shell/index.html's boot frame repeats these rules in plain CSS.
 */
export const colorSchemeCss = `
  :root { color-scheme: light; ${declarations(colorSchemes.light)} }
  @media (prefers-color-scheme: dark) {
    :root:not([data-theme='light']) { color-scheme: dark; ${declarations(colorSchemes.dark)} }
  }
  :root[data-theme='dark'] { color-scheme: dark; ${declarations(colorSchemes.dark)} }
`;

/**
 * What sits on a photo or on the full-screen image viewer: the same in both schemes, since a
 * photo is no lighter in dark mode.
 */
const media = {
  backdrop: 'rgb(15 23 42 / 0.94)',
  scrim: 'rgb(15 23 42 / 0.75)',
  veil: 'rgb(15 23 42 / 0.35)',
  text: '#ffffff',
  controlBorder: 'rgb(255 255 255 / 0.4)',
  controlBackground: 'rgb(255 255 255 / 0.08)',
  controlActiveText: '#0f172a',
  focus: '#93c5fd',
} as const;

export const theme = {
  space,
  breakpoints: { mobile: MOBILE_BREAKPOINT_PX },
  colors,
  media,
  radius: { sm: '4px', md: '8px', lg: '12px', full: '9999px' },
  shadow: {
    sm: `0 1px 2px ${colors.shadowSm}`,
    lg: `0 10px 30px ${colors.shadowLg}`,
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
