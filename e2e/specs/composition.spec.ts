import type { Page } from '@playwright/test';
import { MEMBER_EMAIL, expect, test } from '../support/fixtures';

/** Which app provided each loaded shared module, read from the Module Federation runtime. */
async function loadedSharedProviders(page: Page) {
  return page.evaluate(() => {
    type Shared = { from: string; loaded?: boolean };
    const share = (
      window as unknown as {
        __FEDERATION__?: {
          __SHARE__?: Record<string, Record<string, Record<string, Record<string, Shared>>>>;
        };
      }
    ).__FEDERATION__?.__SHARE__;
    const providers: Record<string, string[]> = {};
    for (const scopes of Object.values(share ?? {})) {
      for (const modules of Object.values(scopes)) {
        for (const [name, versions] of Object.entries(modules)) {
          for (const shared of Object.values(versions)) {
            if (!shared.loaded) continue;
            providers[name] = [...new Set([...(providers[name] ?? []), shared.from])];
          }
        }
      }
    }
    return providers;
  });
}

test('remotes run on the shell’s single React, router, SWR cache, styled-components and kit', async ({
  page,
  signInAs,
}) => {
  const user = await signInAs(MEMBER_EMAIL, '/opportunities');
  await expect(page.getByText('Under Construction - Features coming soon')).toBeVisible();
  await page
    .getByRole('complementary', { name: 'Sidebar' })
    .getByRole('link', { name: 'Profile' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/profile/${user.id}$`));
  await expect(page.getByRole('heading', { name: user.name, level: 1 })).toBeVisible();

  const providers = await loadedSharedProviders(page);
  for (const name of [
    'react',
    'react-dom',
    'react-router-dom',
    'swr',
    'styled-components',
    '@campus/kit/api',
    '@campus/kit/data',
    '@campus/kit/session',
    '@campus/kit/toast',
  ]) {
    expect(providers[name], name).toEqual(['shell']);
  }
});

interface Manifest {
  shared: { name: string; version: string; assets: { js: { sync: string[]; async: string[] } } }[];
  exposes: { assets: { js: { sync: string[]; async: string[] } } }[];
}

async function manifestAt(page: Page, url: string): Promise<Manifest> {
  const response = await page.request.get(url);
  expect(response.ok(), url).toBe(true);
  return (await response.json()) as Manifest;
}

test('the shell provides every kit entry point, and the remotes run on it', async ({
  page,
  signInAs,
  env,
  requestedUrls,
}) => {
  test.setTimeout(90_000); // three full page loads on a busy machine
  const kitEntryPoints = (manifest: Manifest) =>
    manifest.shared.map((shared) => shared.name).filter((name) => name.startsWith('@campus/kit/'));
  const shell = await manifestAt(page, `${env.shellUrl}/mf-manifest.json`);
  const providedByShell = kitEntryPoints(shell);
  for (const [remote, manifestUrl] of Object.entries(env.remotes)) {
    const usedByRemote = kitEntryPoints(await manifestAt(page, manifestUrl));
    expect(providedByShell, remote).toEqual(expect.arrayContaining(usedByRemote));
  }
  // Including the entry points the shell never imports itself.
  expect(providedByShell).toEqual(
    expect.arrayContaining([
      '@campus/kit/post-card',
      '@campus/kit/follow-button',
      '@campus/kit/user-row',
    ]),
  );

  // Pages where the feed and the profile render post cards, follow buttons and user rows.
  const user = await signInAs(MEMBER_EMAIL, '/');
  // The first page load of a run composes every app cold: give it longer than one expectation.
  await expect(page.getByRole('article').first()).toBeVisible({ timeout: 30_000 });
  await page.goto(`/profile/${user.id}`);
  await expect(page.getByRole('heading', { name: user.name, level: 1 })).toBeVisible();
  await page.goto(`/profile/${user.id}/following`);
  await expect(
    page.getByRole('heading', { name: new RegExp(`^${user.name}'s Following`) }),
  ).toBeVisible();

  // Whose copy of the post card and of the follow button ran: the shell never imports them itself,
  // so their code comes from the shell's files only if the remotes consumed the shell's copy.
  const scriptsFrom = async (origin: string) => {
    const urls = [...new Set(requestedUrls)].filter(
      (url) => url.startsWith(origin) && url.endsWith('.js'),
    );
    return Promise.all(urls.map(async (url) => (await page.request.get(url)).text()));
  };
  const shellCode = (await scriptsFrom(env.shellUrl)).join('\n');
  const remoteCode = (
    await Promise.all(Object.values(env.remotes).map((url) => scriptsFrom(new URL(url).origin)))
  )
    .flat()
    .join('\n');
  for (const marker of ['Show less', 'Follow status updated!']) {
    expect(shellCode, marker).toContain(marker);
    expect(remoteCode, marker).not.toContain(marker);
  }
});
