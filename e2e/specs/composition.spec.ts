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
