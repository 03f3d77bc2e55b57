import { crc32, deflateSync } from 'node:zlib';
import { expectNoSeriousA11yViolations } from '../support/accessibility';
import { MEMBER_EMAIL, expect, test, toast } from '../support/fixtures';

// Issue 39: pictures in posts. A member posts two images with alt text from the composer, sees
// them in the feed without layout shift, opens the viewer with the keyboard and reads the alt text.
const unique = (text: string) => `${text} ${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;

/** A PNG of `width` × `height` with a diagonal gradient (the API decodes it with sharp). */
function gradientPng(width: number, height: number, tint: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter, no interlace
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      const shade = (x + y) / (width + height);
      rows.set(
        tint.map((channel) => Math.round(channel * shade + 40 * (1 - shade))),
        row + 1 + x * 3,
      );
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const LAB_ALT = 'The robotics lab: two arms on a bench under a window';
const POSTER_ALT = 'Club fair poster: Thursday, main hall, free coffee';

test('a member posts two images with alt text, sees them in the feed without a shift, and reads the alt text in the viewer', async ({
  page,
  signInAs,
}, testInfo) => {
  test.slow(); // two uploads processed by the API, a reload, on a shared 2-core machine
  const text = unique('Open day at the lab, and the club fair poster');
  await signInAs(MEMBER_EMAIL, '/');
  await expect(page.getByRole('article').first()).toBeVisible();

  await page
    .getByRole('complementary', { name: 'Sidebar' })
    .getByRole('button', { name: 'Post' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Create Post' });
  await dialog.getByRole('textbox', { name: "What's happening on campus?" }).fill(text);
  await dialog.getByLabel('Choose images').setInputFiles([
    { name: 'lab.png', mimeType: 'image/png', buffer: gradientPng(960, 720, [40, 120, 220]) },
    { name: 'poster.png', mimeType: 'image/png', buffer: gradientPng(600, 900, [230, 140, 40]) },
  ]);
  const attached = dialog.getByRole('list', { name: 'Attached images' });
  await expect(attached.getByRole('listitem')).toHaveCount(2);
  // Each waits for its upload; Post waits for both.
  const post = dialog.getByRole('button', { name: 'Post', exact: true });
  await expect(post).toBeEnabled({ timeout: 30_000 });
  await expect(dialog.getByRole('progressbar')).toHaveCount(0);
  await expect(dialog.getByText(/helps people who use a screen reader/)).toHaveCount(2);
  await dialog.getByLabel('Alt text for image 1').fill(LAB_ALT);
  await dialog.getByLabel('Alt text for image 2').fill(POSTER_ALT);
  await expect(dialog.getByText(/helps people who use a screen reader/)).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, testInfo, 'composer with two images');
  await post.click();
  await expect(toast(page)).toContainText('Post created successfully!');

  // A fresh load of the feed, with its layout shifts counted from the first paint.
  await page.addInitScript(() => {
    const shifts: number[] = [];
    Object.assign(window, { __layoutShifts: shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
      })[]) {
        if (!entry.hadRecentInput) shifts.push(entry.value);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.reload();
  const card = page.getByRole('article', { name: /^Post by / }).filter({ hasText: text });
  const grid = card.getByRole('group', { name: '2 images' });
  await expect(grid).toBeVisible();
  const cells = grid.getByRole('button', { name: /^Open image/ });
  await expect(cells).toHaveCount(2);
  const before = await Promise.all([grid, cells.nth(0), cells.nth(1)].map((l) => l.boundingBox()));

  // Both images arrive, from the API, in a format of the picture's sources.
  for (const [index, alt] of [LAB_ALT, POSTER_ALT].entries()) {
    const image = cells.nth(index).getByRole('img', { name: alt });
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    const source = await image.evaluate((img: HTMLImageElement) => img.currentSrc);
    expect(source).toMatch(/\.(webp|avif)(\?|$)/);
  }
  const after = await Promise.all([grid, cells.nth(0), cells.nth(1)].map((l) => l.boundingBox()));
  expect(after).toEqual(before);
  const shifts = await page.evaluate(
    () => (window as unknown as { __layoutShifts: number[] }).__layoutShifts,
  );
  const cumulative = shifts.reduce((sum, value) => sum + value, 0);
  expect(cumulative).toBeLessThanOrEqual(0.05);

  // The viewer, with the keyboard only.
  await cells.nth(0).focus();
  await page.keyboard.press('Enter');
  const viewer = page.getByRole('dialog', { name: 'Image 1 of 2' });
  await expect(viewer).toBeVisible();
  await expect(viewer.getByRole('img', { name: LAB_ALT })).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('dialog', { name: 'Image 2 of 2' })).toBeVisible();
  const alt = page.getByRole('dialog').getByRole('button', { name: 'ALT' });
  await alt.focus();
  await page.keyboard.press('Enter');
  await expect(alt).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('dialog').getByText(POSTER_ALT)).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo, 'image viewer');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(cells.nth(0)).toBeFocused();
});
