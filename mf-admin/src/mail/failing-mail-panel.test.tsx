import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminMail } from '@campus/contracts';
import { dismissToast } from '@campus/kit/toast';
import { ADA, callsTo, renderPage } from '@campus/kit/testing';
import { adminApi, pageOf } from '../admin/admin-test-api';
import AuditPage from '../audit/audit-page';

const failed: AdminMail = {
  id: 41,
  to: 'ben@campus.edu',
  subject: 'Reset your Campus password',
  status: 'failed',
  attempts: 8,
  lastError: 'connect ECONNREFUSED 10.0.0.5:587',
  nextAttemptAt: null,
  createdAt: new Date().toISOString(),
};
const retrying: AdminMail = {
  ...failed,
  id: 42,
  to: 'cy@campus.edu',
  subject: 'Verify your Campus account',
  status: 'retrying',
  attempts: 2,
  nextAttemptAt: new Date(Date.now() + 60_000).toISOString(),
};

beforeEach(() => act(() => dismissToast()));
afterEach(() => window.localStorage.clear());

describe('FailingMailPanel (on every admin page)', () => {
  it('when e-mails keep failing, then the admin sees each with its attempts and error, and a Retry queues a failed one again', async () => {
    let mails = [failed, retrying];
    const fetchMock = adminApi(({ method, pathname }) => {
      if (pathname === '/api/admin/audit') return { status: 200, body: pageOf([]) };
      if (method === 'GET' && pathname === '/api/admin/mail')
        return { status: 200, body: pageOf(mails) };
      if (method === 'POST' && pathname === '/api/admin/mail/41/retry') {
        mails = [retrying];
        return { status: 200, body: { ...failed, status: 'retrying', attempts: 0 } };
      }
      return undefined;
    });
    renderPage(<AuditPage />, { path: '/admin/audit', signedInAs: ADA });

    const panel = await screen.findByRole('region', { name: /E-mails not delivered/ });
    const table = within(panel).getByRole('table');
    const [, first, second] = within(table).getAllByRole('row');
    expect(
      within(first!)
        .getAllByRole('cell')
        .slice(0, 5)
        .map((cell) => cell.textContent),
    ).toEqual([
      'ben@campus.edu',
      'Reset your Campus password',
      'Failed',
      '8',
      'connect ECONNREFUSED 10.0.0.5:587',
    ]);
    expect(within(second!).getByText(/^Retrying \(next try/)).toBeInTheDocument();

    await userEvent.click(
      within(panel).getByRole('button', { name: 'Retry the e-mail to ben@campus.edu' }),
    );
    expect(callsTo(fetchMock, '/api/admin/mail/41/retry', 'POST')).toHaveLength(1);
    expect(await screen.findByText('E-mail queued again')).toBeInTheDocument();
    await screen.findByText((_, node) => node?.textContent === 'E-mails not delivered 1');
    expect(within(panel).queryByText('ben@campus.edu')).not.toBeInTheDocument();
  });

  it('when no e-mail is failing, then there is no panel', async () => {
    const fetchMock = adminApi(({ pathname }) =>
      pathname === '/api/admin/audit' ? { status: 200, body: pageOf([]) } : undefined,
    );
    renderPage(<AuditPage />, { path: '/admin/audit', signedInAs: ADA });
    await screen.findByText('No admin action yet.');
    expect(callsTo(fetchMock, '/api/admin/mail').length).toBeGreaterThan(0);
    expect(screen.queryByRole('region', { name: /E-mails not delivered/ })).not.toBeInTheDocument();
  });
});
