import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callsTo, mockApi } from '@campus/kit/testing';
import { renderApp } from '../testing/render-app';

beforeEach(() => window.localStorage.clear());
afterEach(() => jest.useRealTimers());

describe('VerifyEmailPage', () => {
  it('verifies the token, says so, then goes to /login after 3 seconds', async () => {
    jest.useFakeTimers();
    // The answer waits until the test has seen the page verifying.
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const fetchMock = mockApi(async ({ path }) => {
      if (path !== '/api/auth/verify/good-token') return undefined;
      await answered;
      return { status: 200, body: { message: 'Email verified' } };
    });
    renderApp('/verify/good-token');
    // The signed-out pages are loaded on demand (out of a signed-in first load), so they appear
    // after a tick.
    expect(
      await screen.findByRole('status', { name: 'Verifying your email...' }),
    ).toBeInTheDocument();
    answer();
    expect(
      await screen.findByText('Email verified successfully! You can now log in.'),
    ).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      'http://api.test/api/auth/verify/good-token',
      expect.anything(),
    );
    act(() => jest.advanceTimersByTime(2999));
    expect(screen.queryByRole('heading', { name: 'Sign in to Campus' })).not.toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1));
    expect(await screen.findByRole('heading', { name: 'Sign in to Campus' })).toBeInTheDocument();
  });

  it("shows the server's error as-is with the ways on", async () => {
    mockApi(() => ({
      status: 400,
      body: { message: 'Verification failed', error: 'This link has expired' },
    }));
    renderApp('/verify/old-token');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired');
    expect(screen.getByRole('link', { name: 'Register Again' })).toHaveAttribute(
      'href',
      '/register',
    );
    expect(screen.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/login');
  });

  it('reports a network failure with the spec text', async () => {
    mockApi(() => {
      throw new TypeError('Failed to fetch');
    });
    renderApp('/verify/any-token');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to verify email. Please try again.',
    );
  });

  describe('when the link was opened elsewhere than in the browser that registered', () => {
    const asked = {
      status: 200,
      body: {
        message: 'Choose a password to finish verifying your email.',
        passwordRequired: true,
      },
    };

    it('asks for a password with the registration rules, verifies with it, then shows the success state', async () => {
      const fetchMock = mockApi(({ method, pathname }) => {
        if (pathname !== '/api/auth/verify/held-token') return undefined;
        if (method === 'GET') return asked;
        return {
          status: 200,
          body: { message: 'Email verified successfully! You can now log in.' },
        };
      });
      renderApp('/verify/held-token');
      const password = await screen.findByLabelText('Password');
      expect(
        screen.getByText('Choose a password to finish verifying your email.'),
      ).toBeInTheDocument();
      expect(password).toHaveFocus();

      await userEvent.type(password, 'short');
      await userEvent.click(screen.getByRole('button', { name: 'Verify and set password' }));
      expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
      expect(password).toHaveAttribute('aria-invalid', 'true');
      expect(password).toHaveAccessibleDescription('Password must be at least 8 characters');
      expect(callsTo(fetchMock, '/api/auth/verify/held-token', 'POST')).toHaveLength(0);

      await userEvent.clear(password);
      await userEvent.type(password, 'my own password{Enter}');
      expect(
        await screen.findByText('Email verified successfully! You can now log in.'),
      ).toBeInTheDocument();
      const posts = callsTo(fetchMock, '/api/auth/verify/held-token', 'POST');
      expect(posts).toHaveLength(1);
      expect(JSON.parse(String(posts[0]!.init.body))).toEqual({ password: 'my own password' });
      // Then the spec's success state, whose redirect the first test follows on a fake clock.
    });

    it('when the link was used meanwhile, then the spec error state with its ways on', async () => {
      const message = 'This verification link is invalid or has already been used.';
      mockApi(({ method, pathname }) => {
        if (pathname !== '/api/auth/verify/raced-token') return undefined;
        if (method === 'GET') return asked;
        return { status: 400, body: { message, error: message } };
      });
      renderApp('/verify/raced-token');
      await userEvent.type(await screen.findByLabelText('Password'), 'my own password{Enter}');
      expect(await screen.findByRole('alert')).toHaveTextContent(message);
      expect(screen.getByRole('link', { name: 'Register Again' })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Go to Login' })).toBeInTheDocument();
    });

    it('when the network fails or the server refuses, then it is announced and the password can be sent again', async () => {
      let answer: 'network' | 'limited' | 'ok' = 'network';
      mockApi(({ method, pathname }) => {
        if (pathname !== '/api/auth/verify/flaky-token') return undefined;
        if (method === 'GET') return asked;
        if (answer === 'network') throw new TypeError('Failed to fetch');
        if (answer === 'limited') {
          return { status: 429, body: { message: 'Too many requests. Try again in 5 minutes.' } };
        }
        return {
          status: 200,
          body: { message: 'Email verified successfully! You can now log in.' },
        };
      });
      renderApp('/verify/flaky-token');
      const password = await screen.findByLabelText('Password');
      await userEvent.type(password, 'my own password{Enter}');
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'Failed to verify email. Please try again.',
      );
      answer = 'limited';
      await userEvent.click(screen.getByRole('button', { name: 'Verify and set password' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'Too many requests. Try again in 5 minutes.',
      );
      answer = 'ok';
      await userEvent.click(screen.getByRole('button', { name: 'Verify and set password' }));
      expect(
        await screen.findByText('Email verified successfully! You can now log in.'),
      ).toBeInTheDocument();
    });
  });
});
