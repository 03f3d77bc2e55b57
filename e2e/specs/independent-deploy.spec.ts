import { MEMBER_EMAIL, expect, test } from '../support/fixtures';
import { originOf } from '../support/environment';
import { deployAt, rebuildRemote, runsAgainstExternalServices } from '../support/remote-deploys';

test.skip(runsAgainstExternalServices(), 'rebuilds a remote from the local sources');

test('a feed release deployed alone shows on the next page load while the shell stays unchanged', async ({
  page,
  signInAs,
  env,
}) => {
  test.setTimeout(180_000);
  const shellScripts: string[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(env.shellUrl) && response.request().resourceType() === 'script')
      shellScripts.push(new URL(response.url()).pathname);
  });
  await signInAs(MEMBER_EMAIL, '/');
  const tabs = page.getByRole('tablist').first();
  await expect(tabs.getByRole('tab', { name: 'For You', exact: true })).toBeVisible();
  const shellBefore = [...shellScripts].sort();

  const release = await rebuildRemote('mf-feed', {
    change: { search: "'For You'", replacement: "'For You (new release)'" },
  });
  const deployment = await deployAt(page, originOf(env.remotes.mf_feed), release.dist);
  try {
    shellScripts.length = 0;
    await page.reload();
    await expect(tabs.getByRole('tab', { name: 'For You (new release)' })).toBeVisible();
    // The shell was not rebuilt or redeployed: it loaded exactly the same files again.
    expect([...shellScripts].sort()).toEqual(shellBefore);
    // The rest of the page still works with the new release: the sidebar and another remote.
    await page
      .getByRole('complementary', { name: 'Sidebar' })
      .getByRole('link', { name: 'Notifications' })
      .click();
    await expect(page.getByRole('heading', { name: /^Notifications/, level: 1 })).toBeVisible();
  } finally {
    await deployment.close();
    await release.remove();
  }
});
