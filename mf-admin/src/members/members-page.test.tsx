import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminUser } from '@campus/contracts';
import { dismissToast } from '@campus/kit/toast';
import { ADA, callsTo, renderPage } from '@campus/kit/testing';
import { adminApi, pageOf } from '../admin/admin-test-api';
import MembersPage from './members-page';

const now = new Date().toISOString();
const ben: AdminUser = {
  id: 2,
  name: 'Ben Larsen',
  email: 'ben@campus.edu',
  avatarUrl: null,
  status: 'active',
  isAdmin: false,
  suspendedAt: null,
  suspensionReason: null,
  suspensionCategory: null,
  createdAt: now,
  lastActiveAt: null,
};
const cy: AdminUser = {
  ...ben,
  id: 3,
  name: 'Cy Grace',
  email: 'cy@home.example',
  affiliation: 'alumni',
  status: 'suspended',
  suspendedAt: now,
  suspensionReason: 'Spam',
  suspensionCategory: 'spam',
};
const admin: AdminUser = { ...ben, id: 107, name: 'Campus Admin', isAdmin: true };

function serve() {
  return adminApi(({ method, pathname }) => {
    if (method === 'GET' && pathname === '/api/admin/users')
      return { status: 200, body: pageOf([ben, cy, admin]) };
    if (method === 'POST' && pathname === '/api/admin/users/2/suspend')
      return { status: 200, body: { ...ben, status: 'suspended' } };
    if (method === 'POST' && pathname === '/api/admin/users/3/reactivate')
      return { status: 200, body: { ...cy, status: 'active' } };
    return undefined;
  });
}

beforeEach(() => act(() => dismissToast()));
afterEach(() => window.localStorage.clear());

describe('MembersPage', () => {
  it('when the admin searches, then the search and the status filter go to the API', async () => {
    const fetchMock = serve();
    renderPage(<MembersPage />, { path: '/admin/members', signedInAs: ADA });
    await screen.findByRole('article', { name: 'Ben Larsen' });
    await userEvent.type(screen.getByLabelText('Search members'), 'grace{Enter}');
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Suspended');
    const last = callsTo(fetchMock, '/api/admin/users').at(-1);
    expect(last?.url.searchParams.get('q')).toBe('grace');
    expect(last?.url.searchParams.get('status')).toBe('suspended');
  });

  it('when a member is suspended, then a category and a reason are required and sent', async () => {
    const fetchMock = serve();
    renderPage(<MembersPage />, { path: '/admin/members', signedInAs: ADA });
    await userEvent.click(await screen.findByRole('button', { name: 'Suspend Ben Larsen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend Ben Larsen' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Choose a category');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Harassment or bullying' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Reason is required');
    expect(callsTo(fetchMock, '/api/admin/users/2/suspend', 'POST')).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'Insults in comments');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(await screen.findByText('Member suspended')).toBeInTheDocument();
    const [call] = callsTo(fetchMock, '/api/admin/users/2/suspend', 'POST');
    expect(JSON.parse(String(call?.init.body))).toEqual({
      category: 'harassment',
      reason: 'Insults in comments',
    });
  });

  it('when a suspended member is reactivated, then the toast says they can sign in again', async () => {
    const fetchMock = serve();
    renderPage(<MembersPage />, { path: '/admin/members', signedInAs: ADA });
    const row = await screen.findByRole('article', { name: 'Cy Grace' });
    expect(within(row).getByText('Alumni')).toBeInTheDocument();
    expect(within(row).getByText('Suspended for spam: Spam')).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: 'Reactivate Cy Grace' }));
    expect(await screen.findByText('Cy Grace can sign in again.')).toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/admin/users/3/reactivate', 'POST')).toHaveLength(1);
  });

  it('when the row is the admin, then it offers no suspension', async () => {
    serve();
    renderPage(<MembersPage />, { path: '/admin/members', signedInAs: ADA });
    const row = await screen.findByRole('article', { name: 'Campus Admin' });
    expect(within(row).queryByRole('button')).not.toBeInTheDocument();
  });
});
