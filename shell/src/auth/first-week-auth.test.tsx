import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { readStoredAuth } from '@campus/kit/api';
import { callsTo, mockApi, type ApiHandler } from '@campus/kit/testing';
import { dismissToast } from '@campus/kit/toast';
import { renderApp } from '../testing/render-app';
import { SIGNED_OUT_EVERYWHERE } from './login-page';

/** Issue 41, "Onboarding" and "Also": the signed-out pages of a member's first week. */

const erin = {
  id: 41,
  name: 'Erin',
  email: 'erin@campus.edu',
  avatarUrl: null,
  bio: '',
  createdAt: '2026-11-29T10:00:00.000Z',
};
const rules = {
  status: 200,
  body: { institutionDomains: ['campus.edu', 'mail.campus.edu', 'cu.edu'], passwordMinLength: 8 },
};
const signedInApi =
  (more: ApiHandler = () => undefined): ApiHandler =>
  (call) => {
    if (call.pathname === '/api/auth/me')
      return { status: 200, body: { user: erin, roles: ['member'] } };
    if (call.pathname === '/api/settings') return { status: 200, body: { logo_url: 'local' } };
    if (call.pathname === '/api/notifications') return { status: 200, body: [] };
    return more(call);
  };

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
  act(() => dismissToast());
});
afterEach(() => jest.useRealTimers());

async function registerErin(email = 'erin@campus.edu') {
  await userEvent.type(await screen.findByLabelText('Full name'), 'Erin');
  await userEvent.type(screen.getByLabelText('Email'), email);
  await userEvent.type(screen.getByLabelText('Password'), 'long-enough-password');
  await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
}

describe('after sign-up, the sign-in page says where the link went until that address signs in', () => {
  it('keeps the spec toast, notes "We sent a link to … · Resend", resends through the API, and forgets it once that address signs in', async () => {
    const fetchMock = mockApi(
      signedInApi(({ method, pathname }) => {
        if (pathname === '/api/auth/registration-rules') return rules;
        if (method === 'POST' && pathname === '/api/auth/register')
          return { status: 201, body: { message: 'Check your inbox', user: erin } };
        if (method === 'POST' && pathname === '/api/auth/resend-verification')
          return { status: 202, body: { message: 'We have sent it a new link.' } };
        if (method === 'POST' && pathname === '/api/auth/login')
          return { status: 200, body: { user: erin, token: 'jwt' } };
        return undefined;
      }),
    );
    const first = renderApp('/register');
    await registerErin();
    expect(await screen.findByText('Account created successfully!')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Sign in to Campus' })).toBeInTheDocument();
    const note = await screen.findByText(/We sent a link to/);
    expect(note).toHaveTextContent('We sent a link to erin@campus.edu · Resend');
    first.unmount();

    // Another visit of this device: still said.
    renderApp('/login');
    const again = await screen.findByText(/We sent a link to/);
    await userEvent.click(
      within(again).getByRole('button', { name: 'Resend the link to erin@campus.edu' }),
    );
    expect(await screen.findByText('We have sent it a new link.')).toBeInTheDocument();
    const [resent] = callsTo(fetchMock, '/api/auth/resend-verification', 'POST');
    expect(JSON.parse(String(resent?.init.body))).toEqual({ email: 'erin@campus.edu' });

    await userEvent.type(screen.getByLabelText('Email'), 'erin@campus.edu');
    await userEvent.type(screen.getByLabelText('Password'), 'long-enough-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Welcome back!')).toBeInTheDocument();
    expect(window.localStorage.getItem('campus.pending-sign-up')).toBeNull();
  });
});

describe('a verification link opened in the browser that registered signs the member in', () => {
  it('shows the spec success text, then after 3 seconds opens Campus as that member, with no sign-in page and no repeated toast', async () => {
    jest.useFakeTimers();
    window.localStorage.setItem('campus.pending-sign-up', 'erin@campus.edu');
    mockApi(
      signedInApi(({ pathname }) =>
        pathname === '/api/auth/verify/own-token'
          ? {
              status: 200,
              body: { message: 'Email verified successfully! You can now log in.', user: erin },
            }
          : undefined,
      ),
      { acceptStoredLogin: false },
    );
    renderApp('/verify/own-token');
    expect(
      await screen.findByText('Email verified successfully! You can now log in.'),
    ).toBeInTheDocument();
    expect(screen.getByText(/You are signed in as erin@campus.edu/)).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(3000));
    expect(await screen.findByRole('complementary', { name: 'Sidebar' })).toHaveTextContent('Erin');
    expect(screen.queryByRole('heading', { name: 'Sign in to Campus' })).not.toBeInTheDocument();
    expect(screen.queryByText('Account created successfully!')).not.toBeInTheDocument();
    expect(readStoredAuth()?.user).toEqual({
      id: 41,
      name: 'Erin',
      email: 'erin@campus.edu',
      avatarUrl: null,
    });
    expect(window.localStorage.getItem('campus.pending-sign-up')).toBeNull();
  });
});

describe('an invitation verified at registration signs the member in', () => {
  it('when the API says signedIn, then Campus opens as that member without the sign-in page', async () => {
    mockApi(
      signedInApi(({ method, pathname }) => {
        if (pathname === '/api/invitations/mailed-tok')
          return { status: 200, body: { name: 'Erin', email: 'erin@campus.edu' } };
        if (method === 'POST' && pathname === '/api/auth/register')
          return {
            status: 201,
            body: { message: 'Account created successfully!', user: erin, signedIn: true },
          };
        return undefined;
      }),
      { acceptStoredLogin: false },
    );
    renderApp('/register?invitation=mailed-tok');
    await userEvent.type(await screen.findByLabelText('Password'), 'long-enough-password');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('complementary', { name: 'Sidebar' })).toHaveTextContent('Erin');
    expect(readStoredAuth()?.user.email).toBe('erin@campus.edu');
    expect(window.localStorage.getItem('campus.pending-sign-up')).toBeNull();
  });
});

describe('registration tells its rules up front and its errors on the field', () => {
  it('shows the accepted domains and the 8-character rule before any submit, as the fields’ descriptions', async () => {
    mockApi(({ pathname }) => (pathname === '/api/auth/registration-rules' ? rules : undefined));
    renderApp('/register');
    expect(
      await screen.findByText('Accepted: @campus.edu, @mail.campus.edu, @cu.edu'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(
      'Accepted: @campus.edu, @mail.campus.edu, @cu.edu',
    );
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('At least 8 characters');
  });

  it('when the address is outside the domains, then the field says so as soon as it is left, before any submit', async () => {
    const fetchMock = mockApi(({ pathname }) =>
      pathname === '/api/auth/registration-rules' ? rules : undefined,
    );
    renderApp('/register');
    await screen.findByText(/Accepted: @campus.edu/);
    const email = screen.getByLabelText('Email');
    await userEvent.type(email, 'erin@gmail.com');
    await userEvent.tab();
    const message =
      'Only institutional email addresses are accepted (@campus.edu, @mail.campus.edu, @cu.edu).';
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(email).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(callsTo(fetchMock, '/api/auth/register', 'POST')).toHaveLength(0);
    // Corrected, it says nothing more.
    await userEvent.clear(email);
    await userEvent.type(email, 'erin@campus.edu');
    await userEvent.tab();
    expect(email).not.toHaveAttribute('aria-invalid');
  });

  it('when the API refuses the address, then its message is on the field too, beside the spec toast', async () => {
    const refusal = 'Only institutional email addresses are accepted (@other.ac.uk).';
    mockApi(({ method, pathname }) =>
      method === 'POST' && pathname === '/api/auth/register'
        ? { status: 400, body: { message: refusal } }
        : undefined,
    );
    renderApp('/register');
    await registerErin();
    expect(await screen.findByText('Registration failed')).toBeInTheDocument();
    const email = screen.getByLabelText('Email');
    await waitFor(() => expect(email).toHaveAccessibleDescription(refusal));
    expect(email).toHaveFocus();
  });
});

describe('a reset link that no longer works says so instead of showing the form', () => {
  it('when the API says the link is used or expired, then its message and a way to a new link, and no password field', async () => {
    const message =
      'This reset link is invalid, has expired or has already been used. Please request a new one.';
    mockApi(({ pathname }) =>
      pathname === '/api/auth/reset-password/old-link'
        ? { status: 200, body: { valid: false, message } }
        : undefined,
    );
    renderApp('/reset-password/old-link');
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it('when the link is valid, then the form; when the check fails, then Retry', async () => {
    let reachable = false;
    mockApi(({ pathname }) => {
      if (pathname !== '/api/auth/reset-password/live-link') return undefined;
      if (!reachable) throw new TypeError('Failed to fetch');
      return { status: 200, body: { valid: true } };
    });
    renderApp('/reset-password/live-link');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to check your reset link. Please try again.',
    );
    reachable = true;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByLabelText('New password')).toBeInTheDocument();
  });
});

describe('after "Sign out of all devices", the sign-in page says why you are there', () => {
  it('reads the navigation the settings page made', async () => {
    mockApi(() => undefined);
    renderApp({ pathname: '/', state: { signedOut: 'everywhere' } });
    expect(await screen.findByRole('heading', { name: 'Sign in to Campus' })).toBeInTheDocument();
    expect(screen.getByText(SIGNED_OUT_EVERYWHERE)).toHaveAttribute('role', 'status');
  });
});
