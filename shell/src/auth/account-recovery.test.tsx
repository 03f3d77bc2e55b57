import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { dismissToast } from '@campus/kit/toast';
import { callsTo, mockApi, type ApiCall } from '@campus/kit/testing';
import { renderApp } from '../testing/render-app';

beforeEach(() => {
  window.localStorage.clear();
  dismissToast();
});

describe('Forgot password', () => {
  it('is linked from sign-in, asks for the e-mail and confirms without saying whether it exists', async () => {
    const fetchMock = mockApi(({ method, pathname }) =>
      method === 'POST' && pathname === '/api/auth/forgot-password'
        ? { status: 202, body: { message: 'If an account exists, a link is on its way.' } }
        : undefined,
    );
    renderApp('/');
    await userEvent.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    // The sign-in page has an Email field too, and stays up while the lazy page loads.
    await screen.findByRole('heading', { name: 'Forgot your password?' });
    await userEvent.type(screen.getByLabelText('Email'), ' Ada@Campus.edu ');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'If an account exists, a link is on its way.',
    );
    const [call] = callsTo(fetchMock, '/api/auth/forgot-password', 'POST');
    expect(JSON.parse(String(call?.init.body))).toEqual({ email: 'ada@campus.edu' });
  });

  it('refuses an invalid address in its field, without calling the API', async () => {
    const fetchMock = mockApi();
    renderApp('/forgot-password');
    await userEvent.type(await screen.findByLabelText('Email'), 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeVisible();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('Reset password', () => {
  /** The link's check (issue 41): the form shows only for a link that still works. */
  const liveLink = ({ method, pathname }: ApiCall) =>
    method === 'GET' && pathname.startsWith('/api/auth/reset-password/')
      ? { status: 200, body: { valid: true } }
      : undefined;

  it('sets the new password with the token of the link, then goes to sign-in with a toast', async () => {
    const fetchMock = mockApi((call) =>
      call.method === 'POST' && call.pathname === '/api/auth/reset-password'
        ? { status: 200, body: { message: 'Your password has been reset.' } }
        : liveLink(call),
    );
    renderApp('/reset-password/abc123');
    await userEvent.type(await screen.findByLabelText('New password'), 'a brand new password');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'a brand new password');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Password reset')).toBeVisible();
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeVisible();
    const [call] = callsTo(fetchMock, '/api/auth/reset-password', 'POST');
    expect(JSON.parse(String(call?.init.body))).toEqual({
      token: 'abc123',
      password: 'a brand new password',
    });
  });

  it('checks the two passwords match before sending', async () => {
    const fetchMock = mockApi(liveLink);
    renderApp('/reset-password/abc123');
    await userEvent.type(await screen.findByLabelText('New password'), 'a brand new password');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'another password');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('The passwords do not match')).toBeVisible();
    expect(callsTo(fetchMock, '/api/auth/reset-password', 'POST')).toHaveLength(0);
  });

  it('says when the link was used meanwhile (after its check) and offers a new one', async () => {
    mockApi(
      (call) =>
        liveLink(call) ?? {
          status: 400,
          body: { message: 'This reset link is invalid or has expired.' },
        },
    );
    renderApp('/reset-password/used');
    await userEvent.type(await screen.findByLabelText('New password'), 'a brand new password');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'a brand new password');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This reset link is invalid or has expired.');
    expect(within(alert).getByRole('link', { name: 'Request a new link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });
});

describe('Resend verification', () => {
  it('is offered only when sign-in is refused for an unverified e-mail, and sends that address', async () => {
    const fetchMock = mockApi(({ pathname }) => {
      if (pathname === '/api/auth/login')
        return { status: 403, body: { message: 'Please verify your email before logging in.' } };
      if (pathname === '/api/auth/resend-verification')
        return { status: 202, body: { message: 'A new link is on its way if needed.' } };
      return undefined;
    });
    renderApp('/');
    expect(screen.queryByRole('button', { name: 'Resend verification e-mail' })).toBeNull();
    await userEvent.type(await screen.findByLabelText('Email'), 'new@campus.edu');
    await userEvent.type(screen.getByLabelText('Password'), 'whatever');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Resend verification e-mail' }),
    );
    expect(await screen.findByText('A new link is on its way if needed.')).toBeVisible();
    const [call] = callsTo(fetchMock, '/api/auth/resend-verification', 'POST');
    expect(JSON.parse(String(call?.init.body))).toEqual({ email: 'new@campus.edu' });
  });

  it('is not offered for wrong credentials', async () => {
    mockApi(() => ({ status: 401, body: { message: 'Invalid email or password' } }));
    renderApp('/');
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@campus.edu');
    await userEvent.type(screen.getByLabelText('Password'), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Login failed')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Resend verification e-mail' })).toBeNull();
  });
});
