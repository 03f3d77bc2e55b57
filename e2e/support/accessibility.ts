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
