// Issue 41: while a page's code arrives, its skeleton has the page's shape (a profile or the
// notifications drawn as post cards read as the wrong page arriving). Its own file: a remote
// whose code never arrives stays pending in remote-slot's module-level caches.
import { screen } from '@testing-library/react';
import { mockApi, signIn } from '@campus/kit/testing';
import { pendingRemotes } from '../testing/module-federation-runtime';
import { renderApp } from '../testing/render-app';

const ada = { id: 3, name: 'Ada Okafor', email: 'ada@campus.edu', avatarUrl: null };

beforeAll(() => {
  pendingRemotes.add('mf_feed').add('mf_profile').add('mf_notifications');
});
afterAll(() => pendingRemotes.clear());

it.each([
  ['/', 'posts', 'post'],
  ['/post/5', 'posts', 'post'],
  ['/profile/9', 'profile', 'profile-header'],
  ['/profile/3/edit', 'form', 'field'],
  ['/settings', 'form', 'field'],
  ['/notifications', 'list', 'list-row'],
  ['/profile/9/followers', 'list', 'list-row'],
])('while the code of %s arrives, its skeleton is shaped as %s', async (path, shape, part) => {
  window.localStorage.clear();
  signIn(ada);
  mockApi(({ path: called }) =>
    called === '/api/settings' ? { status: 200, body: { logo_url: 'local' } } : undefined,
  );
  renderApp(path);
  const skeleton = await screen.findByTestId('page-skeleton');
  expect(skeleton).toHaveAttribute('data-shape', shape);
  expect(skeleton).toHaveAttribute('aria-busy', 'true');
  expect(skeleton.querySelector(`[data-shape-part="${part}"]`)).not.toBeNull();
  if (shape === 'list' || shape === 'form')
    expect(skeleton.querySelector('[data-shape-part="post"]')).toBeNull();
});
