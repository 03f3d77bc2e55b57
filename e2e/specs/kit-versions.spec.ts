// What a feature team should expect when it deploys a remote built against another version of
// @campus/kit than the deployed shell's (docs/feature-teams.md): a newer minor runs on the
// shell's kit; a newer major is refused in its own slot, and the rest of Campus keeps working.
import type { Page } from '@playwright/test';
import { MEMBER_EMAIL, expect, test } from '../support/fixtures';
import { originOf } from '../support/environment';
import {
  deployAt,
  kitVersions,
  rebuildRemote,
  runsAgainstExternalServices,
} from '../support/remote-deploys';

test.skip(runsAgainstExternalServices(), 'rebuilds a remote from the local sources');

/** For each kit entry point in the page's share scope: the versions registered, and loaded. */
async function kitInShareScope(page: Page) {
  return page.evaluate(() => {
    type Shared = { loaded?: boolean; lib?: unknown };
    const share = (
      window as unknown as {
        __FEDERATION__?: {
          __SHARE__?: Record<string, Record<string, Record<string, Record<string, Shared>>>>;
        };
      }
    ).__FEDERATION__?.__SHARE__;
    const kit: Record<string, { registered: string[]; loaded: string[] }> = {};
    for (const scopes of Object.values(share ?? {})) {
      for (const modules of Object.values(scopes)) {
        for (const [name, versions] of Object.entries(modules)) {
          if (!name.startsWith('@campus/kit/')) continue;
          const entry = (kit[name] ??= { registered: [], loaded: [] });
          for (const [version, shared] of Object.entries(versions)) {
            entry.registered.push(version);
            if (shared.loaded || shared.lib) entry.loaded.push(version);
          }
        }
      }
    }
    // Every Module Federation instance lists the share scope it sees: count each version once.
    for (const entry of Object.values(kit)) {
      entry.registered = [...new Set(entry.registered)].sort();
      entry.loaded = [...new Set(entry.loaded)].sort();
    }
    return kit;
  });
}

test('a feed built against a newer minor kit runs on the shell’s kit, with a warning for its team', async ({
  page,
  signInAs,
  env,
}) => {
  test.setTimeout(180_000);
  const { current, nextMinor } = await kitVersions();
  const release = await rebuildRemote('mf-feed', {
    change: { search: "'For You'", replacement: `'For You (kit ${nextMinor})'` },
    kitVersion: nextMinor,
  });
  const deployment = await deployAt(page, originOf(env.remotes.mf_feed), release.dist);
  const warnings: string[] = [];
  const crashes: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  page.on('pageerror', (error) => crashes.push(error.message));
  try {
    await signInAs(MEMBER_EMAIL, '/');
    const tabs = page.getByRole('tablist').first();
    // A cold first load of every app on a busy machine: longer than one expectation.
    await expect(tabs.getByRole('tab', { name: `For You (kit ${nextMinor})` })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByRole('article').first()).toBeVisible();
    expect(warnings).toContainEqual(
      expect.stringContaining(
        `mf_feed was built against @campus/kit ${nextMinor}, newer than the shell's ${current}`,
      ),
    );
    // One session, one API client, one SWR cache: the shell's, not a second copy from the remote.
    const kit = await kitInShareScope(page);
    for (const name of ['@campus/kit/api', '@campus/kit/session', '@campus/kit/data']) {
      expect(kit[name]?.loaded, name).toEqual([current]);
    }
    // Another remote, built with the shell, still works next to it.
    await page
      .getByRole('complementary', { name: 'Sidebar' })
      .getByRole('link', { name: 'Notifications' })
      .click();
    await expect(page.getByRole('heading', { name: /^Notifications/, level: 1 })).toBeVisible();
    expect(crashes).toEqual([]);
  } finally {
    await deployment.close();
    await release.remove();
  }
});

test('a feed built against a newer major kit is refused in its slot; the shell and the other remotes keep working', async ({
  page,
  signInAs,
  env,
  requestedUrls,
}) => {
  test.setTimeout(180_000);
  const { current, nextMajor } = await kitVersions();
  const feedOrigin = originOf(env.remotes.mf_feed);
  const release = await rebuildRemote('mf-feed', {
    change: { search: "'For You'", replacement: `'For You (kit ${nextMajor})'` },
    kitVersion: nextMajor,
  });
  const deployment = await deployAt(page, feedOrigin, release.dist);
  const crashes: string[] = [];
  page.on('pageerror', (error) => crashes.push(error.message));
  try {
    await signInAs(MEMBER_EMAIL, '/');
    const slot = page.getByRole('main').getByRole('alert');
    await expect(
      slot.getByRole('heading', { name: 'This part of Campus is being updated' }),
    ).toBeVisible({ timeout: 30_000 });
    await expect(slot).toContainText(
      "We couldn't load the feed: it was built for another version of Campus.",
    );
    await expect(slot).toContainText(
      `mf_feed needs @campus/kit ${nextMajor}; this page provides ${current}.`,
    );
    await expect(page.getByRole('tab', { name: /For You/ })).toHaveCount(0);

    // Refused from its manifest: none of its code ran, and no copy of the other kit major entered
    // the page's share scope for another remote to pick up. The only script of it the browser
    // fetched is remoteEntry.js, which the home page's `Link: rel=preload` header names so it
    // downloads in parallel (issue 22): preloaded, never executed; none of its chunks came.
    const feedFiles = requestedUrls.filter((url) => url.startsWith(feedOrigin));
    expect(feedFiles.some((url) => url.endsWith('/mf-manifest.json'))).toBe(true);
    expect(
      feedFiles.filter((url) => url.endsWith('.js') && !url.endsWith('/remoteEntry.js')),
    ).toEqual([]);
    const kit = await kitInShareScope(page);
    for (const [name, versions] of Object.entries(kit)) {
      expect(versions.registered, name).not.toContain(nextMajor);
    }

    // Retry asks again and gets the same clear answer, not a crash.
    await slot.getByRole('button', { name: 'Retry' }).click();
    await expect(
      page.getByRole('main').getByText(`mf_feed needs @campus/kit ${nextMajor}`),
    ).toBeVisible();

    // The shell and the other remotes are untouched: the sidebar, a profile, notifications.
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await sidebar.getByRole('link', { name: 'Profile' }).click();
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
    await sidebar.getByRole('link', { name: 'Notifications' }).click();
    await expect(page.getByRole('heading', { name: /^Notifications/, level: 1 })).toBeVisible();
    expect(crashes).toEqual([]);
  } finally {
    await deployment.close();
    await release.remove();
  }
});
