// The pages' Content-Security-Policy and frame protection (scripts/serve/security-headers.ts):
// what an attacker who gets markup or a string into a page would try, refused by the browser.
import { MEMBER_EMAIL, expect, test } from '../support/fixtures';

test('every app answers with the policy: scripts from the app and its remotes only, no framing', async ({
  request,
  env,
}) => {
  const remoteOrigins = Object.values(env.remotes).map((url) => new URL(url).origin);
  const apiOrigin = new URL(env.apiUrl).origin;
  for (const url of [
    `${env.shellUrl}/`,
    `${env.shellUrl}/profile/1`,
    ...Object.values(env.remotes),
  ]) {
    const response = await request.get(url);
    const headers = response.headers();
    const policy = Object.fromEntries(
      (headers['content-security-policy'] ?? '').split(/;\s*/).map((directive) => {
        const [name, ...values] = directive.split(' ');
        return [name, values];
      }),
    ) as Record<string, string[]>;
    expect(policy['default-src'], url).toEqual(["'self'"]);
    expect(policy['script-src'], url).toEqual(expect.arrayContaining(["'self'", ...remoteOrigins]));
    expect(policy['script-src'], url).not.toContain("'unsafe-inline'");
    expect(policy['script-src'], url).not.toContain("'unsafe-eval'");
    expect(policy['connect-src'], url).toEqual(expect.arrayContaining([apiOrigin]));
    expect(policy['img-src'], url).toEqual(expect.arrayContaining([apiOrigin]));
    expect(policy['frame-ancestors'], url).toEqual(["'none'"]);
    expect(policy['object-src'], url).toEqual(["'none'"]);
    expect(headers['x-frame-options'], url).toBe('DENY');
  }
});

test('a remote lets only the shell read its files', async ({ request, env }) => {
  const manifest = env.remotes.mf_feed;
  const fromShell = await request.get(manifest, { headers: { Origin: env.shellUrl } });
  expect(fromShell.headers()['access-control-allow-origin']).toBe(env.shellUrl);
  const fromElsewhere = await request.get(manifest, {
    headers: { Origin: 'https://evil.example' },
  });
  expect(fromElsewhere.headers()['access-control-allow-origin']).toBeUndefined();
});

test('an injected inline script and eval do not run, and no page may frame the app', async ({
  page,
  signInAs,
  env,
  cspViolations,
}) => {
  await signInAs(MEMBER_EMAIL, '/');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  const outcome = await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.__campusInjected = true;';
    document.body.append(script);
    const injected = (window as unknown as { __campusInjected?: boolean }).__campusInjected;
    // Later, from the page's own task queue: the evaluation that Playwright starts is exempt.
    const evaluated = await new Promise<string>((resolve) =>
      setTimeout(() => {
        try {
          window.eval('1 + 1');
          resolve('ran');
        } catch (error) {
          resolve(error instanceof EvalError ? 'refused' : String(error));
        }
      }, 0),
    );
    return { injected: injected === true, evaluated };
  });
  expect(outcome).toEqual({ injected: false, evaluated: 'refused' });
  await expect.poll(() => cspViolations.join('\n')).toMatch(/inline[\s\S]*eval|eval[\s\S]*inline/);

  // Framed by any other page: the browser refuses to render the shell inside (an error page
  // takes its place).
  await page.goto('about:blank');
  await page.setContent(`<iframe src="${env.shellUrl}/" title="framed"></iframe>`);
  await expect.poll(() => page.frames().length).toBe(2);
  const framed = page.frames()[1]!;
  await framed.waitForLoadState();
  await expect.poll(() => framed.url()).not.toBe('about:blank');
  expect(framed.url().startsWith(env.shellUrl)).toBe(false);
  await expect(framed.locator('#root')).toHaveCount(0);
  cspViolations.splice(0);
});
