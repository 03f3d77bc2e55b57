import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuditEntry } from '@campus/contracts';
import { ADA, callsTo, renderPage } from '@campus/kit/testing';
import { adminApi, pageOf } from '../admin/admin-test-api';
import AuditPage, { detailsText } from './audit-page';

const entry: AuditEntry = {
  id: 1,
  createdAt: new Date().toISOString(),
  admin: { id: 107, name: 'Campus Admin', email: 'admin@campus.edu', avatarUrl: null },
  action: 'user.suspend',
  target: { type: 'user', id: 2 },
  details: { reason: 'Harassment', emailed: false, note: null },
};

afterEach(() => window.localStorage.clear());

describe('AuditPage', () => {
  it('when entries exist, then each shows time, admin, action, target and details, with pages', async () => {
    const fetchMock = adminApi(({ pathname }) =>
      pathname === '/api/admin/audit' ? { status: 200, body: pageOf([entry], 45) } : undefined,
    );
    renderPage(<AuditPage />, { path: '/admin/audit', signedInAs: ADA });
    const table = await screen.findByRole('table', { name: 'Admin actions, newest first' });
    const [, row] = within(table).getAllByRole('row');
    const cells = within(row!)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(1)).toEqual([
      'Campus Admin',
      'Suspended member',
      'user #2',
      'reason: Harassment, emailed: false',
    ]);
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 3');
    expect(callsTo(fetchMock, '/api/admin/audit').at(-1)?.url.searchParams.get('page')).toBe('2');
  });

  it('detailsText leaves out empty values', () => {
    expect(detailsText({ status: 'resolved', reply: '', other: null })).toBe('status: resolved');
  });
});
