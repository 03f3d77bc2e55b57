import type { Page } from '@playwright/test';
import { ADMIN_EMAIL, MEMBER_EMAIL, expect, test, toast } from '../support/fixtures';

interface ProfileBody {
  id: number;
  name: string;
  isFollowing: boolean;
  followingCount: number;
  followersCount: number;
  posts: unknown[];
}

/** A picture drawn by the browser itself, as PNG bytes (nothing is read from disk). */
async function drawPicture(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 200;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#1d4ed8';
    context.fillRect(0, 0, 320, 200);
    context.fillStyle = '#fbbf24';
    context.fillRect(110, 50, 100, 100);
    return canvas.toDataURL('image/png');
  });
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}

test.describe('the own profile', () => {
  test('shows who I am, my counts linking to the lists, my posts and my own actions', async ({
    page,
    signInAs,
    apiAs,
  }) => {
    const ada = await apiAs(MEMBER_EMAIL);
    const profile = await ada.call<ProfileBody>('GET', `/api/users/${ada.user.id}`);
    await signInAs(MEMBER_EMAIL, '/profile');

    await expect(page.getByRole('heading', { name: 'Ada Okafor', level: 1 })).toBeVisible();
    const header = page.getByRole('region', { name: 'Ada Okafor' });
    await expect(header.getByText('@ada.okafor', { exact: true })).toBeVisible();
    await expect(header.getByText(/^Joined \S/)).toBeVisible();
    for (const button of ['Edit Profile', 'Feedback', 'Logout']) {
      await expect(page.getByRole('button', { name: button })).toBeVisible();
    }
    await expect(page.getByRole('button', { name: /^Follow\b/ })).toHaveCount(0);
    const posts = page.getByRole('region', { name: 'Posts' });
    expect(profile.posts.length).toBeGreaterThan(0);
    await expect(posts.getByRole('article').first()).toBeVisible();

    await page
      .getByRole('link', { name: new RegExp(`^${profile.followingCount}\\s*Following$`) })
      .click();
    await expect(page).toHaveURL(new RegExp(`/profile/${ada.user.id}/following$`));
    await expect(
      page.getByRole('heading', { name: `Ada Okafor's Following (${profile.followingCount})` }),
    ).toBeVisible();
    await page.goBack();
    await page
      .getByRole('link', { name: new RegExp(`^${profile.followersCount}\\s*Followers$`) })
      .click();
    await expect(
      page.getByRole('heading', { name: `Ada Okafor's Followers (${profile.followersCount})` }),
    ).toBeVisible();
  });

  test('the sticky name scrolls back to the top', async ({ page, signInAs }) => {
    await page.setViewportSize({ width: 1280, height: 500 });
    await signInAs(MEMBER_EMAIL, '/profile');
    await expect(
      page.getByRole('region', { name: 'Posts' }).getByRole('article').first(),
    ).toBeVisible();
    // The wheel over the page's own content: at 500 px the sidebar (with Trending today) is a
    // scroller of its own, and a wheel at the pointer's start (0, 0) would scroll it instead.
    await page.getByRole('region', { name: 'Posts' }).getByRole('article').first().hover();
    await page.mouse.wheel(0, 2000);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
    await page.getByRole('button', { name: 'Ada Okafor, scroll to top' }).click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('feedback is sent from the own profile and reaches the admin', async ({
    page,
    signInAs,
    apiAs,
  }) => {
    await signInAs(MEMBER_EMAIL, '/profile');
    const opener = page.getByRole('button', { name: 'Feedback' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Send Feedback' });
    const field = dialog.getByRole('textbox');
    await expect(field).toBeFocused();
    await expect(field).toHaveAttribute('rows', '5');
    const send = dialog.getByRole('button', { name: 'Send Feedback' });
    await field.fill('   ');
    await expect(send).toBeDisabled();
    const message = `The library needs more quiet rooms ${Date.now()}`;
    await field.fill(`  ${message}  `);
    await send.click();
    await expect(toast(page)).toContainText('Feedback sent!');
    await expect(toast(page)).toContainText("Thank you for your feedback. We'll review it soon.");
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();

    const admin = await apiAs(ADMIN_EMAIL);
    const notifications = await admin.call<{ type: string; feedback?: { message: string } }[]>(
      'GET',
      '/api/notifications',
    );
    expect(
      notifications.some((item) => item.type === 'feedback' && item.feedback?.message === message),
    ).toBe(true);

    await opener.click();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });
});

test.describe("someone else's profile", () => {
  test('follow, Following turning into Unfollow on hover, and unfollow', async ({
    page,
    signInAs,
    apiAs,
  }) => {
    const ada = await apiAs(MEMBER_EMAIL);
    const yara = await apiAs('yara.haddad@campus.edu');
    const before = await ada.call<ProfileBody>('GET', `/api/users/${yara.user.id}`);
    if (before.isFollowing) await ada.call('POST', `/api/users/${yara.user.id}/follow`);
    const start = await ada.call<ProfileBody>('GET', `/api/users/${yara.user.id}`);

    await signInAs(MEMBER_EMAIL, `/profile/${yara.user.id}`);
    await expect(page.getByRole('heading', { name: yara.user.name, level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: '← Back' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Edit Profile' })).toHaveCount(0);

    // named after the person (issue 41)
    await page.getByRole('button', { name: `Follow ${yara.user.name}`, exact: true }).click();
    await expect(toast(page)).toContainText('Success');
    await expect(toast(page)).toContainText('Follow status updated!');
    await expect(
      page.getByRole('link', {
        name: new RegExp(`^${start.followersCount + 1}\\s*Followers$`),
      }),
    ).toBeVisible();
    const button = page.getByRole('button', {
      name: new RegExp(`^(Following|Unfollow) ${yara.user.name}$`),
    });
    await page.mouse.move(0, 0);
    await page.locator('body').focus();
    await expect(button).toHaveText('Following');
    await button.hover();
    await expect(button).toHaveText('Unfollow');

    // Ada is now on Yara's followers list, without a follow button on her own row
    await page.getByRole('link', { name: /Followers$/ }).click();
    await expect(
      page.getByRole('heading', {
        name: `${yara.user.name}'s Followers (${start.followersCount + 1})`,
      }),
    ).toBeVisible();
    const adaRow = page.getByRole('article', { name: 'Ada Okafor' });
    await expect(adaRow).toContainText('@ada.okafor');
    await expect(adaRow.getByRole('button')).toHaveCount(0);
    await page.goBack();

    await page
      .getByRole('button', { name: new RegExp(`^(Following|Unfollow) ${yara.user.name}$`) })
      .click();
    await expect(toast(page)).toContainText('Follow status updated!');
    await expect(
      page.getByRole('button', { name: `Follow ${yara.user.name}`, exact: true }),
    ).toBeVisible();
    await expect(
      page.getByRole('link', { name: new RegExp(`^${start.followersCount}\\s*Followers$`) }),
    ).toBeVisible();
  });

  test('a follow that fails says so', async ({ page, signInAs, apiAs }) => {
    const yara = await apiAs('yara.haddad@campus.edu');
    await signInAs(MEMBER_EMAIL, `/profile/${yara.user.id}`);
    await page.route('**/api/users/*/follow', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"x"}' }),
    );
    await page.getByRole('button', { name: /^(Follow|Following|Unfollow) / }).click();
    await expect(toast(page)).toContainText('Error');
    await expect(toast(page)).toContainText('Failed to update follow status.');
  });

  test('Back returns to where the member came from, or home when opened directly', async ({
    page,
    signInAs,
    apiAs,
  }) => {
    const ada = await apiAs(MEMBER_EMAIL);
    await signInAs(MEMBER_EMAIL, '/profile');
    await page.getByRole('link', { name: /Followers$/ }).click();
    await expect(page).toHaveURL(new RegExp(`/profile/${ada.user.id}/followers$`));
    // The profile (with its own post cards) stays on screen until the list has arrived.
    await expect(page.getByRole('heading', { name: /'s Followers \(\d+\)$/ })).toBeVisible();
    const firstRow = page.getByRole('article').first();
    const name = (await firstRow.getByRole('link').first().textContent())!;
    await firstRow.getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    await page.getByRole('button', { name: '← Back' }).click();
    await expect(page).toHaveURL(new RegExp(`/profile/${ada.user.id}/followers$`));

    const yara = await apiAs('yara.haddad@campus.edu');
    await page.goto(`/profile/${yara.user.id}`);
    await page.getByRole('button', { name: '← Back' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('an unknown user is not found', async ({ page, signInAs }) => {
    await signInAs(MEMBER_EMAIL, '/profile/999999');
    await expect(page.getByRole('heading', { name: 'User not found' })).toBeVisible();
    await expect(page.getByText("This user profile doesn't exist.")).toBeVisible();
    // The page says it all: no error toast on top of it (issue 20). Other failures still toast.
    await expect(toast(page)).toHaveCount(0);
  });
});

test.describe('editing the profile', () => {
  // William's profile is changed here, so no other spec depends on it.
  const WILLIAM = 'william.scott@cu.edu';

  test('validates, saves name and bio, updates the stored user and returns to the profile', async ({
    page,
    signInAs,
  }) => {
    const user = await signInAs(WILLIAM, '/');
    await page.goto(`/profile/${user.id}`);
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await expect(page).toHaveURL(new RegExp(`/profile/${user.id}/edit$`));
    const name = page.getByLabel('Display name');
    await expect(name).toHaveValue(user.name);

    await name.fill('');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Name is required')).toBeVisible();
    await name.fill('W'.repeat(101));
    await expect(page.getByText('Name must be less than 100 characters')).toBeVisible();
    await page.getByLabel('Bio').fill('b'.repeat(501));
    await expect(page.getByText('Bio must be less than 500 characters')).toBeVisible();

    const bio = `Economics, class of 2027 (${Date.now()})`;
    await name.fill('William Scott-Ito');
    await page.getByLabel('Bio').fill(bio);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(page)).toContainText('Profile updated successfully!');
    await expect(page).toHaveURL(new RegExp(`/profile/${user.id}$`));
    await expect(page.getByRole('heading', { name: 'William Scott-Ito', level: 1 })).toBeVisible();
    await expect(page.getByText(bio)).toBeVisible();
    await expect(
      page.getByRole('complementary', { name: 'Sidebar' }).getByText('William Scott-Ito'),
    ).toBeVisible();
    const stored = await page.evaluate(() => window.localStorage.getItem('campus.auth'));
    expect(JSON.parse(stored!).user.name).toBe('William Scott-Ito');
  });

  test('a chosen picture is cropped to a square JPEG, uploaded and becomes the avatar', async ({
    page,
    signInAs,
  }) => {
    const user = await signInAs(WILLIAM, '/');
    await page.goto(`/profile/${user.id}/edit`);
    await expect(page.getByLabel('Display name')).toBeVisible();
    const picture = await drawPicture(page);

    // Cancel clears the selection
    await page.getByLabel('Upload picture').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: picture,
    });
    let dialog = page.getByRole('dialog', { name: 'Crop your picture' });
    await expect(dialog.getByRole('img', { name: 'Picture to crop' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(/will be uploaded when you save/)).toHaveCount(0);

    await page.getByLabel('Upload picture').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: picture,
    });
    dialog = page.getByRole('dialog', { name: 'Crop your picture' });
    const preview = dialog.getByRole('img', { name: 'Picture to crop' });
    await expect(preview).toBeVisible();
    expect((await preview.boundingBox())!.height).toBeLessThanOrEqual(400);
    const selection = dialog.locator('.ReactCrop__crop-selection');
    const box = (await selection.boundingBox())!;
    const image = (await preview.boundingBox())!;
    expect(Math.abs(box.width - box.height)).toBeLessThanOrEqual(1); // square
    // the keyboard nudges the square: Shift moves it by 10 px
    await selection.focus();
    await page.keyboard.press('Shift+ArrowLeft');
    await expect
      .poll(async () => Math.round((await selection.boundingBox())!.x))
      .toBe(Math.round(box.x - 10));
    expect(box.height).toBeLessThanOrEqual(image.height + 1);

    // Record what the app uploads: the file's name, type and decoded size.
    await page.evaluate(() => {
      const record = window as unknown as { uploads: Promise<unknown>[] };
      record.uploads = [];
      const original = window.fetch.bind(window);
      window.fetch = (input, init) => {
        const file = init?.body instanceof FormData ? init.body.get('avatar') : null;
        if (file instanceof File) {
          record.uploads.push(
            createImageBitmap(file).then((bitmap) => ({
              name: file.name,
              type: file.type,
              width: bitmap.width,
              height: bitmap.height,
            })),
          );
        }
        return original(input, init);
      };
    });
    await dialog.getByRole('button', { name: 'Apply Crop' }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page.getByText('cropped-avatar.jpg will be uploaded when you save.'),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(page)).toContainText('Profile updated successfully!');
    await expect(page).toHaveURL(new RegExp(`/profile/${user.id}$`));
    const uploads = await page.evaluate(() =>
      Promise.all((window as unknown as { uploads: Promise<unknown>[] }).uploads),
    );
    expect(uploads).toHaveLength(1);
    const [upload] = uploads as { name: string; type: string; width: number; height: number }[];
    expect(upload).toMatchObject({ name: 'cropped-avatar.jpg', type: 'image/jpeg' });
    expect(upload!.width).toBe(upload!.height); // square, at the picture's own resolution
    expect(upload!.width).toBeGreaterThan(150);
    const saved = await page.evaluate(() => window.localStorage.getItem('campus.auth'));
    const avatarUrl = JSON.parse(saved!).user.avatarUrl as string;
    expect(avatarUrl).toMatch(/\/uploads\/[a-f0-9]{32}\.webp$/);
    await expect(
      page
        .getByRole('region', { name: /William/ })
        .getByRole('img')
        .first(),
    ).toHaveAttribute('src', avatarUrl);
  });

  test('a typed image URL replaces the preview; clearing it restores the stored avatar', async ({
    page,
    signInAs,
    apiAs,
  }) => {
    const ada = await apiAs(MEMBER_EMAIL);
    const adaAvatar = (await ada.call<{ avatarUrl: string }>('GET', `/api/users/${ada.user.id}`))
      .avatarUrl;
    const user = await signInAs(WILLIAM, '/');
    const own = await (
      await apiAs(WILLIAM)
    ).call<{ avatarUrl: string }>('GET', `/api/users/${user.id}`);
    await page.goto(`/profile/${user.id}/edit`);
    const preview = page.getByRole('group', { name: 'Profile picture' }).getByRole('img');
    await expect(preview).toHaveAttribute('src', own.avatarUrl);
    const url = page.getByLabel('Or use an image URL');
    await url.fill(adaAvatar);
    await expect(preview).toHaveAttribute('src', adaAvatar);
    await url.fill('');
    await expect(preview).toHaveAttribute('src', own.avatarUrl);

    await url.fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Avatar must be a picture uploaded to Campus')).toBeVisible();
    await url.fill(adaAvatar);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(page)).toContainText('Profile updated successfully!');
    await expect(
      page
        .getByRole('region', { name: /William/ })
        .getByRole('img')
        .first(),
    ).toHaveAttribute('src', adaAvatar);
  });

  test('a failed upload says Failed to upload image and keeps the form', async ({
    page,
    signInAs,
  }) => {
    const user = await signInAs(WILLIAM, '/');
    await page.goto(`/profile/${user.id}/edit`);
    await expect(page.getByLabel('Display name')).toBeVisible();
    await page.route('**/api/upload/avatar', (route) =>
      route.fulfill({ status: 500, contentType: 'text/plain', body: '' }),
    );
    await page.getByLabel('Upload picture').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: await drawPicture(page),
    });
    const dialog = page.getByRole('dialog', { name: 'Crop your picture' });
    await expect(dialog.getByRole('img', { name: 'Picture to crop' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Apply Crop' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(page)).toContainText('Failed to upload image');
    await expect(toast(page)).toContainText('Upload failed');
    await expect(page).toHaveURL(new RegExp(`/profile/${user.id}/edit$`));
  });
});
