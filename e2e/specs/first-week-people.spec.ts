import type { Locator, Page } from '@playwright/test';
import { MEMBER_EMAIL, expect, test, toast } from '../support/fixtures';

/**
 * Issue 41, people (notifications, follow buttons, profiles, who to follow), as a member sees
 * them on a phone (390×844) and on a desktop.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const BEN = 'ben.larsen@campus.edu';
const YARA = 'yara.haddad@campus.edu';
const ADMIN = 'admin@campus.edu';

async function boxOf(locator: Locator) {
  await expect(locator).toBeVisible();
  const box = await locator.boundingBox();
  expect(box, 'a box on screen').not.toBeNull();
  return box!;
}

/** The element's box (its padding included) is a 44×44 CSS px touch target at least. */
async function expectTouchTarget(locator: Locator, what: string) {
  const { width, height } = await boxOf(locator);
  expect(
    { what, width: Math.round(width), height: Math.round(height) },
    `${what} is at least 44×44`,
  ).toEqual({
    what,
    width: Math.max(44, Math.round(width)),
    height: Math.max(44, Math.round(height)),
  });
}

/** Pictures that fail to load: every avatar shows its initials (the kit's fallback). */
async function initialsOnly(page: Page) {
  await page.route('**/uploads/**', (route) => route.fulfill({ status: 404, body: '' }));
}

test.describe('on a phone', () => {
  test.use({ viewport: PHONE });

  test("a group's stacked faces keep their initials whole, and 'View post' is a 44 px target", async ({
    page,
    signInAs,
    apiAs,
  }) => {
    const ada = await apiAs(MEMBER_EMAIL);
    const post = await ada.call<{ id: number }>('POST', '/api/posts', {
      content: `Stacked faces ${Date.now()}`,
    });
    for (const email of [BEN, YARA, ADMIN])
      await (await apiAs(email)).call('POST', `/api/posts/${post.id}/like`);

    await initialsOnly(page);
    await signInAs(MEMBER_EMAIL, '/notifications');
    const item = page.locator(`li[data-group="like:${post.id}"]`);
    const faces = item.getByTestId('avatar');
    await expect(faces).toHaveCount(3);
    for (let i = 0; i < 2; i++) {
      const initials = await boxOf(faces.nth(i).locator('span'));
      const next = await boxOf(faces.nth(i + 1));
      // the next face, drawn over this one, leaves its letters visible
      expect(initials.x + initials.width, `face ${i + 1}'s initials`).toBeLessThanOrEqual(
        next.x + 0.5,
      );
    }
    await expectTouchTarget(item.getByRole('link', { name: 'View post' }), "'View post'");
  });

  test("right after Follow the button reads 'Following' under the pointer, named after the person, 44 px tall like the profile's other actions", async ({
    page,
    signInAs,
    apiAs,
  }) => {
    const ada = await apiAs(MEMBER_EMAIL);
    const yara = await apiAs(YARA);
    const start = await ada.call<{ isFollowing: boolean }>('GET', `/api/users/${yara.user.id}`);
    if (start.isFollowing) await ada.call('POST', `/api/users/${yara.user.id}/follow`);

    await signInAs(MEMBER_EMAIL, `/profile/${yara.user.id}`);
    const follow = page.getByRole('button', { name: `Follow ${yara.user.name}`, exact: true });
    await expectTouchTarget(page.getByRole('button', { name: '← Back' }), '← Back');
    await expectTouchTarget(
      page.getByRole('button', { name: `More actions for ${yara.user.name}` }),
      'the ⋯ menu',
    );
    const { width: followWidth, height } = await boxOf(follow);
    expect(height).toBeGreaterThanOrEqual(44);

    await follow.hover();
    await follow.click();
    await expect(toast(page)).toContainText('Follow status updated!');
    const following = page.getByRole('button', {
      name: new RegExp(`^(Following|Unfollow) ${yara.user.name}$`),
    });
    // the pointer has not moved: no red Unfollow under it
    await expect(following).toHaveText('Following');
    // the label changes, the button's width does not
    expect((await boxOf(following)).width).toBeCloseTo(followWidth, 0);
    await page.mouse.move(0, 0);
    await following.hover();
    await expect(following).toHaveText('Unfollow');
    expect((await boxOf(following)).width).toBeCloseTo(followWidth, 0);

    // Undo, so other specs see the demo follows as they were.
    await following.click();
    await expect(follow).toBeVisible();
  });

  test("on the own profile 'Logout' shares a row with another action, each a 44 px target", async ({
    page,
    signInAs,
  }) => {
    await signInAs(MEMBER_EMAIL, '/profile');
    await expect(page.getByRole('heading', { name: 'Ada Okafor', level: 1 })).toBeVisible();
    const actions = ['Feedback', 'Edit Profile', 'Settings', 'Logout'];
    const boxes = [];
    for (const name of actions) {
      const button = page.getByRole('button', { name, exact: true });
      await expectTouchTarget(button, name);
      boxes.push(await boxOf(button));
    }
    const logout = boxes.at(-1)!;
    const sharing = boxes.slice(0, -1).filter((box) => Math.abs(box.y - logout.y) < 2);
    expect(sharing.length, "'Logout' is not alone on its row").toBeGreaterThan(0);
  });
});

test.describe('on a desktop', () => {
  test.use({ viewport: DESKTOP });

  test('who to follow shows names and reasons whole, and its follow buttons keep their width', async ({
    page,
    signInAs,
  }) => {
    await signInAs(MEMBER_EMAIL, '/');
    const card = page.getByRole('region', { name: 'Who to follow' });
    const people = card.getByRole('listitem');
    await expect(people.first()).toBeVisible();
    const cut = await card.evaluate((element) =>
      [...element.querySelectorAll('li a, li span')]
        .filter((text) => text.scrollWidth > text.clientWidth + 1)
        .map((text) => text.textContent),
    );
    expect(cut, 'texts cut off').toEqual([]);

    const person = people.first();
    const name = (await person.getAttribute('aria-label'))!;
    const follow = person.getByRole('button', { name: `Follow ${name}`, exact: true });
    const before = await boxOf(follow);
    await follow.click();
    await expect(toast(page)).toContainText('Follow status updated!');
    const following = person.getByRole('button', {
      name: new RegExp(`^(Following|Unfollow) `),
    });
    const after = await boxOf(following);
    expect(after.width).toBeCloseTo(before.width, 0);
    expect(after.x).toBeCloseTo(before.x, 0);
    // Undo, so other specs see the demo follows as they were.
    await page.mouse.move(0, 0);
    await following.click();
    await expect(follow).toBeVisible();
  });
});
