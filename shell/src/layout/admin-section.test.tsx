import { screen, waitFor, within } from '@testing-library/react';
import type { Role } from '@campus/contracts';
import { callsTo, mockApi, signIn } from '@campus/kit/testing';
import { registeredRemotes } from '../testing/module-federation-runtime';
import { renderApp } from '../testing/render-app';

const ada = { id: 3, name: 'Ada Okafor', email: 'ada@campus.edu', avatarUrl: null };
const admin = { id: 107, name: 'Admin', email: 'admin@campus.edu', avatarUrl: null };

function apiFor(roles: Role[]) {
  return mockApi(
    ({ pathname }) => {
      if (pathname === '/api/settings') return { status: 200, body: { logo_url: 'local' } };
      if (pathname === '/api/notifications') return { status: 200, body: [] };
      if (pathname === '/api/admin/summary')
        return {
          status: 200,
          body: { pendingApplications: 2, openReports: 1, pendingFeedback: 0 },
        };
      return undefined;
    },
    { roles },
  );
}

beforeEach(() => {
  window.localStorage.clear();
  registeredRemotes.length = 0;
});

describe('the Admin section', () => {
  it('when the admin is signed in, then the sidebar has one Admin entry (the admin pages have their own tabs) with how much waits', async () => {
    signIn(admin);
    apiFor(['member', 'admin']);
    renderApp('/');
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    const entry = within(sidebar).getByRole('link', { name: /^Admin/ });
    expect(entry).toHaveAttribute('href', '/analytics');
    expect(await within(entry).findByLabelText('3 waiting')).toHaveTextContent('3');
    // Issue 41: the admin pages are listed once, by mf-admin's tabs, not a second time here.
    expect(screen.queryByRole('navigation', { name: 'Admin' })).not.toBeInTheDocument();
    for (const page of ['Applications', 'Feedback', 'Members', 'Reports', 'Audit log']) {
      expect(within(sidebar).queryByRole('link', { name: new RegExp(`^${page}`) })).toBeNull();
    }
  });

  it('when the admin is on an admin page, then the Admin entry is the current one', async () => {
    signIn(admin);
    apiFor(['member', 'admin']);
    renderApp('/admin/reports');
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    expect(within(sidebar).getByRole('link', { name: /^Admin/ })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it("when the admin is on a phone, then the bottom bar's Admin is one link (no menu repeating the admin tabs) with a dot when something waits", async () => {
    signIn(admin);
    apiFor(['member', 'admin']);
    renderApp('/admin/reports');
    const bar = await screen.findByRole('navigation', { name: 'Bottom navigation' });
    const entry = await within(bar).findByRole('link', { name: 'Admin (3 waiting)' });
    expect(entry).toHaveAttribute('href', '/analytics');
    expect(entry).toHaveAttribute('aria-current', 'page');
    expect(within(bar).getByTestId('admin-dot')).toBeInTheDocument();
    expect(within(bar).queryByRole('button', { name: /^Admin/ })).toBeNull();
    expect(within(bar).queryByRole('link', { name: /^Reports/ })).toBeNull();
  });

  it('when a member is signed in, then there is no Admin section and nobody asks for the counts', async () => {
    signIn(ada);
    const fetchMock = apiFor(['member']);
    renderApp('/');
    await screen.findByRole('navigation', { name: 'Main' });
    await waitFor(() => expect(callsTo(fetchMock, '/api/notifications').length).toBeGreaterThan(0));
    expect(screen.queryByRole('link', { name: /^Admin/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Admin/ })).not.toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/admin/summary')).toHaveLength(0);
  });
});
