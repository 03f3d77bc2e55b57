import { act, screen } from '@testing-library/react';
import { mockApi } from '@campus/kit/testing';
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
});
