// A feature team tries a new build of its remote against the deployed shell, in its own browser
// only, without redeploying anything (docs/feature-teams.md, "Trying a build against the
// deployed shell").
import { MEMBER_EMAIL, expect, test } from '../support/fixtures';
import { rebuildRemote, runsAgainstExternalServices } from '../support/remote-deploys';

test.skip(runsAgainstExternalServices(), 'rebuilds a remote from the local sources');

test('a feed preview from an allowed origin replaces the feed in this browser only, until cleared; any other origin is refused', async ({
  page,
  browser,
  signInAs,
  env,
}) => {
  test.setTimeout(180_000);
  const { previewOrigin, previewDir } = env;
  if (!previewOrigin || !previewDir) throw new Error('the global setup serves no preview origin');
  // The feature team's build, on the preview server the shell's env.json allows.
  const release = await rebuildRemote('mf-feed', {
    change: { search: "'For You'", replacement: "'For You (preview)'" },
    into: previewDir,
  });
  const port = Number(new URL(previewOrigin).port);
  const manifest = `${previewOrigin}/mf-manifest.json`;
  try {
    // Refused: an origin the shell's env.json does not list. The deployed feed loads as usual.
    const elsewhere = `http://localhost:${port}/mf-manifest.json`;
    await signInAs(MEMBER_EMAIL, `/?mf-override=mf_feed=${encodeURIComponent(elsewhere)}`);
    const banner = page.getByRole('region', { name: 'Remote overrides' });
    await expect(banner.getByRole('alert')).toContainText(
      `Override refused: mf_feed=${elsewhere} (http://localhost:${port} is not in this shell's overrideOrigins)`,
    );
    const tabs = page.getByRole('tablist').first();
    // A cold first load of every app on a busy machine: longer than one expectation.
    await expect(tabs.getByRole('tab', { name: 'For You', exact: true })).toBeVisible({
      timeout: 30_000,
    });

    // Accepted: the feed comes from the preview, the banner says so, the URL is clean again.
    await page.goto(`/?mf-override=mf_feed=${encodeURIComponent(manifest)}`);
    await expect(banner).toContainText(`mf_feed from ${manifest}`);
    await expect(tabs.getByRole('tab', { name: 'For You (preview)' })).toBeVisible();
    expect(new URL(page.url()).search).toBe('');

    // It stays for this browser across reloads and pages...
    await page.reload();
    await expect(tabs.getByRole('tab', { name: 'For You (preview)' })).toBeVisible();
    await expect(banner).toContainText(`mf_feed from ${manifest}`);

    // ...and nobody else sees it: another browser gets the deployed feed and no banner.
    const other = await browser.newContext({ baseURL: env.shellUrl });
    try {
      const otherPage = await other.newPage();
      const auth = await page.evaluate(() => window.localStorage.getItem('campus.auth'));
      // The same member: the session cookies and the stored user, nothing else of this browser.
      await other.addCookies(
        (await page.context().cookies()).filter((cookie) => cookie.name.startsWith('campus_')),
      );
      await otherPage.addInitScript((stored) => {
        window.localStorage.setItem('campus.auth', stored ?? '');
      }, auth);
      await otherPage.goto('/');
      await expect(
        otherPage.getByRole('tablist').first().getByRole('tab', { name: 'For You', exact: true }),
      ).toBeVisible({ timeout: 30_000 }); // a new browser: cold caches
      await expect(otherPage.getByRole('region', { name: 'Remote overrides' })).toHaveCount(0);
    } finally {
      await other.close();
    }

    // One click goes back to the deployed feed.
    await banner.getByRole('button', { name: 'Clear' }).click();
    await expect(tabs.getByRole('tab', { name: 'For You', exact: true })).toBeVisible();
    await expect(banner).toHaveCount(0);
    await page.reload();
    await expect(tabs.getByRole('tab', { name: 'For You', exact: true })).toBeVisible();
  } finally {
    await release.remove();
  }
});
