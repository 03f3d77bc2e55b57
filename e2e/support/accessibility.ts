// Axe on the current screen: WCAG 2.1 A/AA rules; serious and critical findings fail the test
// with the rule, its impact and the elements, and every finding is attached to the report.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';

const BLOCKING = new Set(['serious', 'critical']);

export async function expectNoSeriousA11yViolations(
  page: Page,
  testInfo: TestInfo,
  screen: string,
): Promise<void> {
  // Not networkidle: a signed-in page keeps its live stream (/api/stream) open, so the network is
  // never idle. The page has loaded and nothing on it says it is still busy (skeletons and lists
  // being loaded carry aria-busy).
  await page.waitForLoadState('load');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  await testInfo.attach(`axe: ${screen}`, {
    body: JSON.stringify(results.violations, null, 2),
    contentType: 'application/json',
  });
  const blocking = results.violations
    .filter((violation) => BLOCKING.has(violation.impact ?? ''))
    .map(
      (violation) =>
        `${screen}: ${violation.id} (${violation.impact}) ${violation.help}\n` +
        violation.nodes.map((node) => `    ${node.target.join(' ')}`).join('\n'),
    );
  expect(blocking, blocking.join('\n')).toEqual([]);
}

/**
 * The same check in both colour schemes (issue 41, dark mode): the screen as the system's light
 * scheme paints it, then its dark one (`prefers-color-scheme`, which the app follows while the
 * member has chosen nothing in Settings). The page is left light.
 */
export async function expectNoSeriousA11yViolationsInBothSchemes(
  page: Page,
  testInfo: TestInfo,
  screen: string,
): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect
      .poll(() => page.evaluate(() => getComputedStyle(document.documentElement).colorScheme))
      .toBe(colorScheme);
    await expectNoSeriousA11yViolations(page, testInfo, `${screen} (${colorScheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
