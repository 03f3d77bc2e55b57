// A remote's own address, opened by an operator or a curious member: a plain page saying which
// remote it is, linking to the files the shell loads, with no script and no development page
// (rspack.shared.js, RemoteIndexPlugin; docker/nginx/remote.conf.template serves it at `/` too).
import { expect, test } from '../support/fixtures';

test("a remote's address names the remote and links to its manifest, and runs no script", async ({
  page,
  request,
  env,
}) => {
  for (const [name, manifest] of Object.entries(env.remotes)) {
    const home = new URL('/', manifest).href;
    const response = await request.get(home);
    expect(response.status(), home).toBe(200);
    expect(response.headers()['content-type'], home).toMatch(/^text\/html/);
    expect(response.headers()['cache-control'], home).toBe('no-cache');
    const html = await response.text();
    expect(html, home).not.toMatch(/<script/i);
    expect(html, home).not.toMatch(/localhost:\d+/);

    await page.goto(home);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('remote');
    await expect(page.getByRole('main')).toContainText(name);
    await page.getByRole('link', { name: 'mf-manifest.json' }).click();
    await expect(page).toHaveURL(manifest);
    expect(JSON.parse((await page.locator('body').textContent()) ?? '')).toMatchObject({
      name,
    });
  }
});
