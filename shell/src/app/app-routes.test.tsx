import { screen, waitFor } from '@testing-library/react';
import type { Role } from '@campus/contracts';
import { failingRemotes, registeredRemotes } from '../testing/module-federation-runtime';
import { mockApi, signIn } from '@campus/kit/testing';
import { renderApp } from '../testing/render-app';

const ada = { id: 3, name: 'Ada Okafor', email: 'ada@campus.edu', avatarUrl: null };
const admin = { id: 5, name: 'Admin', email: 'admin@campus.edu', avatarUrl: null };

/** The signed-in user's API; the session check gives them `roles`. */
function apiFor(roles: Role[] = ['member']) {
  return mockApi(
    ({ path }) => {
      if (path === '/api/settings') return { status: 200, body: { logo_url: 'local' } };
      if (path === '/api/notifications') return { status: 200, body: [] };
      return undefined;
    },
    { roles },
  );
}

beforeEach(() => {
  window.localStorage.clear();
  registeredRemotes.length = 0;
  failingRemotes.clear();
});

describe('signed out', () => {
  it.each(['/', '/notifications', '/anything/else', '/login'])(
    '%s shows the login page',
    async (path) => {
      mockApi(() => undefined);
      renderApp(path);
      expect(await screen.findByRole('heading', { name: 'Sign in to Campus' })).toBeInTheDocument();
    },
  );

  it('has the registration page and the verification page', async () => {
    mockApi(() => undefined);
    renderApp('/register');
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
  });

  it('/verify without a token explains the link is invalid', async () => {
    mockApi(() => undefined);
    renderApp('/verify');
    expect(await screen.findByText('Invalid verification link')).toBeInTheDocument();
  });
});

describe('while the session is checked', () => {
  it('shows a full-screen Loading... spinner', () => {
    signIn(ada);
    mockApi(() => new Promise(() => undefined), { acceptStoredLogin: false }); // never answers
    renderApp('/');
    expect(screen.getByRole('status', { name: 'Loading...' })).toHaveTextContent('Loading...');
  });
});

describe('signed in', () => {
  it.each([
    ['/', 'remote mf_feed/FeedPage'],
    ['/post', 'remote mf_feed/FeedPage'],
    ['/post/5', 'remote mf_feed/PostDetailPage'],
    ['/opportunities', 'remote mf_feed/OpportunitiesPage'],
    ['/profile', 'remote mf_profile/ProfilePage'],
    ['/profile/9', 'remote mf_profile/ProfilePage'],
    ['/profile/3/edit', 'remote mf_profile/EditProfilePage'],
    ['/profile/9/following', 'remote mf_profile/FollowListPage (following)'],
    ['/profile/9/followers', 'remote mf_profile/FollowListPage (followers)'],
    ['/notifications', 'remote mf_notifications/NotificationsPage'],
    ['/tags/exams', 'remote mf_feed/TagPage'],
    ['/bookmarks', 'remote mf_feed/BookmarksPage'],
    ['/search?q=exam&tab=posts', 'remote mf_feed/PostSearchResults'],
  ])('%s mounts %s', async (path, mounted) => {
    signIn(ada);
    apiFor();
    renderApp(path);
    expect(await screen.findByText(mounted)).toBeInTheDocument();
  });

  it('shows the AI search placeholder and the not-found page itself', async () => {
    signIn(ada);
    apiFor();
    renderApp('/search');
    expect(await screen.findByRole('heading', { name: 'AI Search' })).toBeInTheDocument();
  });

  it('shows 404 Page Not Found for any other path', async () => {
    signIn(ada);
    apiFor();
    renderApp('/what/is/this');
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
  });

  it('sends a member on /analytics home without ever registering mf_admin', async () => {
    signIn(ada);
    apiFor();
    renderApp('/analytics');
    expect(await screen.findByText('remote mf_feed/FeedPage')).toBeInTheDocument();
    expect(screen.queryByText(/mf_admin/)).not.toBeInTheDocument();
    expect(registeredRemotes).not.toContain('mf_admin');
  });

  it('decides admin by the role the API gives, not by the user id', async () => {
    signIn({ ...ada, id: 107 });
    apiFor(['member']);
    renderApp('/analytics');
    expect(await screen.findByText('remote mf_feed/FeedPage')).toBeInTheDocument();
    expect(registeredRemotes).not.toContain('mf_admin');
  });

  it('registers mf_admin and mounts the dashboard for the admin', async () => {
    signIn(admin);
    apiFor(['member', 'admin']);
    renderApp('/analytics');
    expect(await screen.findByText('remote mf_admin/AnalyticsPage')).toBeInTheDocument();
    expect(registeredRemotes).toContain('mf_admin');
  });

  it.each([
    '/admin/applications',
    '/admin/feedback',
    '/admin/members',
    '/admin/reports',
    '/admin/audit',
  ])('%s shows a member the not-found page without registering mf_admin', async (path) => {
    signIn(ada);
    apiFor();
    renderApp(path);
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
    expect(registeredRemotes).not.toContain('mf_admin');
    // Issue 41: titled as what it shows, not as the admin page ('Members · Campus').
    await waitFor(() => expect(document.title).toBe('Page not found · Campus'));
  });

  it.each([
    ['/admin/applications', 'remote mf_admin/ApplicationsPage'],
    ['/admin', 'remote mf_admin/ApplicationsPage'],
    ['/admin/feedback', 'remote mf_admin/FeedbackPage'],
    ['/admin/members', 'remote mf_admin/MembersPage'],
    ['/admin/reports', 'remote mf_admin/ReportsPage'],
    ['/admin/audit', 'remote mf_admin/AuditPage'],
  ])('%s mounts %s for the admin', async (path, mounted) => {
    signIn(admin);
    apiFor(['member', 'admin']);
    renderApp(path);
    // Loading it needs mf_admin registered (registered once per page, so only the first test sees it).
    expect(await screen.findByText(mounted)).toBeInTheDocument();
    expect(document.title).not.toMatch(/^Page not found/);
  });
});
