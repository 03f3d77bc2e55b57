import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearStoredAuth } from '@campus/kit/api';
import { emitAppEvent } from '@campus/kit/events';
import { mockApi, type ApiHandler } from '@campus/kit/testing';
import { dismissToast } from '@campus/kit/toast';
import { renderApp } from '../testing/render-app';

/** Issue 41: the first run after a member's first sign-in, over the feed (mf_profile's dialog). */

const erin = {
  id: 41,
  name: 'Erin',
  email: 'erin@campus.edu',
  avatarUrl: null,
  bio: '',
  createdAt: '2026-11-29T10:00:00.000Z',
};
const FIRST_RUN = 'remote mf_profile/FirstRunDialog';

function api(login: Record<string, unknown>): ApiHandler {
  return ({ method, pathname }) => {
    if (pathname === '/api/auth/me')
      return { status: 200, body: { user: erin, roles: ['member'] } };
    if (pathname === '/api/settings') return { status: 200, body: { logo_url: 'local' } };
    if (pathname === '/api/notifications') return { status: 200, body: [] };
    if (method === 'POST' && pathname === '/api/auth/login') return { status: 200, body: login };
    if (method === 'POST' && pathname === '/api/auth/logout') return { status: 204 };
    return undefined;
  };
}

async function signInThroughTheForm() {
  await userEvent.type(await screen.findByLabelText('Email'), 'erin@campus.edu');
  await userEvent.type(screen.getByLabelText('Password'), 'long-enough-password');
  await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
}

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
  act(() => dismissToast());
});
afterEach(() => jest.useRealTimers());

describe('the first run', () => {
  it("opens over the feed after the first sign-in (the spec's toast stays), lasts through a reload, and ends for good when closed", async () => {
    mockApi(api({ user: erin, token: 'jwt', firstSignIn: true }));
    const first = renderApp('/login');
    await signInThroughTheForm();
    expect(await screen.findByText('Welcome back!')).toBeInTheDocument();
    expect(screen.getByText('You have successfully logged in.')).toBeInTheDocument();
    expect(await screen.findByText('remote mf_feed/FeedPage')).toBeInTheDocument();
    expect(await screen.findByText(FIRST_RUN)).toBeInTheDocument();
    first.unmount();

    // A reload mid-run shows it again.
    const reloaded = renderApp('/');
    await userEvent.click(
      await screen.findByRole('button', { name: `Close mf_profile/FirstRunDialog` }),
    );
    expect(screen.queryByText(FIRST_RUN)).not.toBeInTheDocument();
    expect(document.getElementById('main-content')).toHaveFocus();
    reloaded.unmount();

    renderApp('/');
    expect(await screen.findByText('remote mf_feed/FeedPage')).toBeInTheDocument();
    expect(screen.queryByText(FIRST_RUN)).not.toBeInTheDocument();
  });

  it('is only over the root route: elsewhere it waits', async () => {
    mockApi(api({ user: erin, token: 'jwt', firstSignIn: true }));
    renderApp('/post/338');
    await signInThroughTheForm();
    expect(await screen.findByText('remote mf_feed/PostDetailPage')).toBeInTheDocument();
    expect(screen.queryByText(FIRST_RUN)).not.toBeInTheDocument();
  });

  it('does not open after a sign-in that is not the first', async () => {
    mockApi(api({ user: erin, token: 'jwt' }));
    renderApp('/login');
    await signInThroughTheForm();
    expect(await screen.findByText('remote mf_feed/FeedPage')).toBeInTheDocument();
    expect(screen.queryByText(FIRST_RUN)).not.toBeInTheDocument();
  });

  it('is forgotten when the member signs out before finishing it', async () => {
    mockApi(api({ user: erin, token: 'jwt', firstSignIn: true }));
    const first = renderApp('/login');
    await signInThroughTheForm();
    expect(await screen.findByText(FIRST_RUN)).toBeInTheDocument();
    act(() => {
      clearStoredAuth();
      emitAppEvent('authChanged', { signedIn: false });
    });
    expect(await screen.findByRole('heading', { name: 'Sign in to Campus' })).toBeInTheDocument();
    first.unmount();

    // Signing in again (not the first sign-in any more) shows no run.
    mockApi(api({ user: erin, token: 'jwt' }));
    renderApp('/login');
    await signInThroughTheForm();
    expect(await screen.findByText('remote mf_feed/FeedPage')).toBeInTheDocument();
    expect(screen.queryByText(FIRST_RUN)).not.toBeInTheDocument();
  });

  it('opens after the verification link that signs the registering browser in for the first time', async () => {
    jest.useFakeTimers();
    mockApi(
      (call) =>
        call.pathname === '/api/auth/verify/own-token'
          ? {
              status: 200,
              body: {
                message: 'Email verified successfully! You can now log in.',
                user: erin,
                firstSignIn: true,
              },
            }
          : api({})(call),
      { acceptStoredLogin: false },
    );
    renderApp('/verify/own-token');
    expect(
      await screen.findByText('Email verified successfully! You can now log in.'),
    ).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(3000));
    jest.useRealTimers();
    expect(await screen.findByText('remote mf_feed/FeedPage')).toBeInTheDocument();
    expect(await screen.findByText(FIRST_RUN)).toBeInTheDocument();
  });

  it('opens after an invitation that signs the member in for the first time', async () => {
    mockApi(
      (call) => {
        if (call.pathname === '/api/invitations/mailed-tok')
          return { status: 200, body: { name: 'Erin', email: 'erin@campus.edu' } };
        if (call.method === 'POST' && call.pathname === '/api/auth/register')
          return {
            status: 201,
            body: {
              message: 'Account created successfully!',
              user: erin,
              signedIn: true,
              firstSignIn: true,
            },
          };
        return api({})(call);
      },
      { acceptStoredLogin: false },
    );
    renderApp('/register?invitation=mailed-tok');
    await userEvent.type(await screen.findByLabelText('Password'), 'long-enough-password');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('remote mf_feed/FeedPage')).toBeInTheDocument();
    expect(await screen.findByText(FIRST_RUN)).toBeInTheDocument();
  });
});
