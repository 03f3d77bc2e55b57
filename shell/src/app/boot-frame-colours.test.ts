// index.html paints the boot frame before any script (issue 41) with its own copy of the kit's
// colour custom properties, light and dark: they must stay the kit's values, or the frame would
// flash other colours when the app takes over.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { colorProperty, colorSchemes, type ColorName } from '@campus/kit/theme';

const html = readFileSync(path.join(__dirname, '..', '..', 'index.html'), 'utf8');

/** The custom properties declared by the first rule whose selector is `selector`. */
function declaredIn(selector: string): Map<string, string> {
  const start = html.indexOf(`${selector} {`);
  expect(start).toBeGreaterThan(-1);
  const body = html.slice(start + selector.length + 2, html.indexOf('}', start));
  return new Map(
    [...body.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map(([, name, value]) => [name!, value!.trim()]),
  );
}

/** The properties the frame uses, as the kit names them, with `palette`'s values. */
function expected(palette: Record<ColorName, string>) {
  const used = new Set(html.match(/var\((--campus-color-[\w-]+)\)/g)?.map((v) => v.slice(4, -1)));
  const names = (Object.keys(palette) as ColorName[]).filter((name) =>
    used.has(colorProperty(name)),
  );
  return new Map(names.map((name) => [colorProperty(name), palette[name]]));
}

describe('the boot frame in index.html', () => {
  it('when nothing is chosen and the system is light, then it uses the kit light colours', () => {
    const light = expected(colorSchemes.light);
    expect(light.size).toBeGreaterThanOrEqual(5);
    expect(declaredIn(':root')).toEqual(light);
  });

  it('when the system prefers dark (and light is not chosen) or dark is chosen, then it uses the kit dark colours', () => {
    const dark = expected(colorSchemes.dark);
    expect(html).toMatch(
      /@media \(prefers-color-scheme: dark\) \{\s*:root:not\(\[data-theme='light'\]\) \{/,
    );
    expect(declaredIn(":root:not([data-theme='light'])")).toEqual(dark);
    expect(declaredIn(":root[data-theme='dark']")).toEqual(dark);
  });

  it('when it paints, then no colour is written out of a custom property', () => {
    const style = html.slice(html.indexOf('<style>'), html.indexOf('</style>'));
    const rules = style.replace(/--campus-color-[\w-]+:\s*[^;]+;/g, '');
    expect(rules).not.toMatch(/#[0-9a-f]{3,8}\b|rgb\(/i);
    const inline = html.slice(html.indexOf('<body>'));
    expect(inline).not.toMatch(/#[0-9a-f]{3,8}\b|rgb\(/i);
  });
});
