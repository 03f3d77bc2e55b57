import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useNavigate } from 'react-router-dom';
import type { Notification } from '@campus/contracts';
import { readStoredAuth } from '@campus/kit/api';
import { mockApi, signIn } from '@campus/kit/testing';
import { dismissToast } from '@campus/kit/toast';
import { renderApp } from '../testing/render-app';
import { documentTitle, routeTitle } from './document-title';
import { useScrollToTopOnNavigate } from './scroll-on-navigate';

const ada = { id: 3, name: 'Ada Okafor', email: 'ada@campus.edu', avatarUrl: null };

const unread = (id: number): Notification => ({
  id,
  type: 'follow',
  isRead: false,
  createdAt: new Date().toISOString(),
  actor: { id: 9, name: 'Ben', avatarUrl: null },
});

/** The signed-in member's API: `notifications` unread ones, a 404 for everything else. */
function memberApi(notifications: Notification[] = []) {
  return mockApi(({ path }) => {
    if (path === '/api/settings') return { status: 200, body: {} };
    if (path === '/api/notifications') return { status: 200, body: notifications };
    return undefined;
  });
}

const scrollTo = jest.fn();

beforeEach(() => {
  window.localStorage.clear();
  scrollTo.mockClear();
  window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
  act(() => dismissToast());
});

describe('document titles', () => {
  it('names every route', () => {
    expect(routeTitle('/', true)).toBe('Home');
    expect(routeTitle('/notifications', true)).toBe('Notifications');
    expect(routeTitle('/post/338', true)).toBe('Post');
    expect(routeTitle('/profile/9/followers', true)).toBe('Followers');
    expect(routeTitle('/profile/9/edit', true)).toBe('Edit profile');
    expect(routeTitle('/admin/feedback', true, true)).toBe('Feedback');
    // Issue 41: a member on an admin page sees the not-found page, and its title.
    expect(routeTitle('/admin/members', true)).toBe('Page not found');
    expect(routeTitle('/admin/members', true, false)).toBe('Page not found');
    expect(routeTitle('/no/such/page', true)).toBe('Page not found');
    expect(routeTitle('/register', false)).toBe('Sign up');
    expect(routeTitle('/post/338', false)).toBe('Sign in');
    expect(documentTitle('Notifications', 3)).toBe('(3) Notifications · Campus');
    expect(documentTitle('Home', 0)).toBe('Home · Campus');
    expect(documentTitle(null)).toBe('Campus');
  });

  it('shows the route and the unread count in the tab title', async () => {
    signIn(ada);
    memberApi([unread(1), unread(2), unread(3)]);
    renderApp('/notifications');
    await waitFor(() => expect(document.title).toBe('(3) Notifications · Campus'));
  });

  it('names the sign-in page for a signed-out deep link', async () => {
    mockApi(() => undefined);
    renderApp('/post/338');
    await screen.findByRole('heading', { name: 'Sign in to Campus' });
    expect(document.title).toBe('Sign in · Campus');
  });
});

describe('signing in from a deep link', () => {
  it('lands on the link, not on Home', async () => {
    const api = mockApi(({ method, path }) => {
      if (method === 'POST' && path === '/api/auth/login') {
        return { status: 200, body: { user: { ...ada, bio: '', createdAt: '' }, token: 'deep' } };
      }
      if (path === '/api/notifications') return { status: 200, body: [] };
      return undefined;
    });
    renderApp('/post/338');
    await userEvent.type(await screen.findByLabelText('Email'), ada.email);
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('remote mf_feed/PostDetailPage')).toBeInTheDocument();
    // The user is stored; the answer's token is not (the session is the cookie).
    expect(readStoredAuth()?.user.id).toBe(ada.id);
    expect(window.localStorage.getItem('campus.auth')).not.toContain('deep');
    expect(api).toHaveBeenCalled();
  });
});

describe('an API that fails at start-up', () => {
  it('keeps the login, shows a retry state, and Try again gets the member in', async () => {
    signIn(ada);
    let down = true;
    mockApi(
      ({ path }) => {
        if (down) return { status: 503, body: { message: 'Service Unavailable' } };
        if (path === '/api/auth/me') {
          return {
            status: 200,
            body: { user: { ...ada, bio: '', createdAt: '' }, roles: ['member'] },
          };
        }
        if (path === '/api/notifications') return { status: 200, body: [] };
        return undefined;
      },
      { acceptStoredLogin: false },
    );
    renderApp('/notifications');
    expect(
      await screen.findByRole('heading', { name: "Campus can't be reached right now" }),
    ).toBeInTheDocument();
    expect(readStoredAuth()?.user.id).toBe(ada.id);
    down = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(
      await screen.findByText('remote mf_notifications/NotificationsPage'),
    ).toBeInTheDocument();
  });
});

describe('scroll on navigation', () => {
  it('starts a new page at the top and glides up when Home is chosen on Home', async () => {
    signIn(ada);
    memberApi();
    renderApp('/');
    await screen.findByText('remote mf_feed/FeedPage');
    expect(scrollTo).not.toHaveBeenCalled(); // the first page is where the browser put it

    const [sidebarNotifications] = screen.getAllByRole('link', { name: /Notifications/ });
    await userEvent.click(sidebarNotifications as HTMLElement);
    await screen.findByText('remote mf_notifications/NotificationsPage');
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 0, left: 0, behavior: 'instant' });

    const [home] = screen.getAllByRole('link', { name: 'Home' });
    await userEvent.click(home as HTMLElement);
    await screen.findByText('remote mf_feed/FeedPage');
    scrollTo.mockClear();
    await userEvent.click(home as HTMLElement);
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, left: 0, behavior: 'smooth' });
  });

  it('leaves Back alone, so the page coming back restores its own place', async () => {
    function Pages() {
      useScrollToTopOnNavigate();
      const navigate = useNavigate();
      return (
        <>
          <button onClick={() => void navigate('/post/1')}>open</button>
          <button onClick={() => void navigate(-1)}>back</button>
        </>
      );
    }
    render(
      <MemoryRouter initialEntries={['/']}>
        <Pages />
      </MemoryRouter>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'open' }));
    expect(scrollTo).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'back' }));
    expect(scrollTo).toHaveBeenCalledTimes(1);
  });
});
