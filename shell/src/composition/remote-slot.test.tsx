import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { failingRemotes } from '../testing/module-federation-runtime';
import { mockApi, signIn } from '@campus/kit/testing';
import { renderApp } from '../testing/render-app';

const ada = { id: 3, name: 'Ada Okafor', email: 'ada@campus.edu', avatarUrl: null };

function apiFor(_user: { id: number; name: string; email: string }) {
  return mockApi(({ path }) => {
    if (path === '/api/notifications') return { status: 200, body: [] };
    return undefined;
  });
}

describe('a remote that cannot be loaded', () => {
  it('shows a failing remote as an error with a Retry that recovers without a reload', async () => {
    signIn(ada);
    apiFor(ada);
    failingRemotes.add('mf_notifications');
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderApp('/notifications');
    // The failed load reaches the boundary after the session check and React's Suspense
    // throttling (jest.testing-library.cjs gives Testing Library's waits the time for that).
    expect(await screen.findByText(/couldn't load your notifications/)).toBeInTheDocument();
    expect(screen.getByRole('complementary', { name: 'Sidebar' })).toBeInTheDocument();
    failingRemotes.clear();
    await act(() => userEvent.click(screen.getByRole('button', { name: 'Retry' })));
    expect(
      await screen.findByText('remote mf_notifications/NotificationsPage'),
    ).toBeInTheDocument();
  });
});
