import { colorProperty, colorSchemeCss, colorSchemes, theme, type ColorName } from './theme';

/** WCAG 2.1 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string) {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((at) => {
      const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

describe('the theme colours', () => {
  it('when a template reads a colour, then it gets the custom property, falling back to the light value', () => {
    expect(theme.colors.surfaceMuted).toBe('var(--campus-color-surface-muted, #f1f5f9)');
    expect(colorProperty('onPrimary')).toBe('--campus-color-on-primary');
    expect(theme.shadow.lg).toContain('var(--campus-color-shadow-lg,');
  });

  it('when the page is light, dark by the system (unless light is chosen) or dark by choice, then the global CSS sets that palette', () => {
    const blocks = colorSchemeCss.replace(/\s+/g, ' ');
    expect(blocks).toContain(':root { color-scheme: light; --campus-color-background: #f8fafc;');
    expect(blocks).toContain(
      "@media (prefers-color-scheme: dark) { :root:not([data-theme='light']) { color-scheme: dark; --campus-color-background: #0b1120;",
    );
    expect(blocks).toContain(
      ":root[data-theme='dark'] { color-scheme: dark; --campus-color-background: #0b1120;",
    );
    for (const name of Object.keys(colorSchemes.dark) as ColorName[]) {
      expect(blocks).toContain(`${colorProperty(name)}: ${colorSchemes.dark[name]};`);
    }
  });

  it.each(['light', 'dark'] as const)(
    'when the page is %s, then its text colours meet WCAG AA (4.5:1) on every background they are put on',
    (scheme) => {
      const palette = colorSchemes[scheme];
      const pairs: [ColorName, ColorName][] = [
        ['onPrimary', 'primary'],
        ['onPrimary', 'primaryHover'],
        ['onDanger', 'danger'],
        ['onNotice', 'notice'],
      ];
      for (const text of ['text', 'textMuted', 'primary', 'danger', 'success'] as const) {
        for (const background of ['background', 'surface', 'surfaceMuted', 'highlight'] as const) {
          pairs.push([text, background]);
        }
      }
      const failing = pairs
        .map(([text, background]) => ({
          pair: `${text} on ${background}`,
          ratio: contrast(palette[text], palette[background]),
        }))
        .filter(({ ratio }) => ratio < 4.5);
      expect(failing).toEqual([]);
    },
  );
});
