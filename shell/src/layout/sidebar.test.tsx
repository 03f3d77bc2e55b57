import { screen, within } from '@testing-library/react';
import { mockApi, signIn } from '@campus/kit/testing';
import { registeredRemotes } from '../testing/module-federation-runtime';
import { renderApp } from '../testing/render-app';

const ada = { id: 3, name: 'Ada Okafor', email: 'ada@campus.edu', avatarUrl: null };

beforeEach(() => {
  window.localStorage.clear();
  registeredRemotes.length = 0;
});

describe('the sidebar (issue 40)', () => {
  it('links to the bookmarks and lists Trending today with links to the tag pages', async () => {
    signIn(ada);
    mockApi(({ path }) => {
      if (path === '/api/settings') return { status: 200, body: { logo_url: 'local' } };
      if (path === '/api/notifications') return { status: 200, body: [] };
      if (path === '/api/tags/trending') {
        return {
          status: 200,
          body: {
            day: '2026-11-29',
            timeZone: 'UTC',
            tags: [{ tag: 'exams', postsCount: 4, authorsCount: 3 }],
          },
        };
      }
      return undefined;
    });
    renderApp('/');
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    expect(within(sidebar).getByRole('link', { name: 'Bookmarks' })).toHaveAttribute(
      'href',
      '/bookmarks',
    );
    const trending = await within(sidebar).findByRole('region', { name: 'Trending today' });
    expect(within(trending).getByRole('link', { name: /#exams/ })).toHaveAttribute(
      'href',
      '/tags/exams',
    );
  });
});
