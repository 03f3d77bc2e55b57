import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuditEntry } from '@campus/contracts';
import { ADA, callsTo, renderPage } from '@campus/kit/testing';
import { adminApi, pageOf } from '../admin/admin-test-api';
import AuditPage, { auditNote } from './audit-page';

const ADMIN = { id: 107, name: 'Campus Admin', email: 'admin@campus.edu', avatarUrl: null };
const FORMER = { id: 9, name: 'Former Admin', email: 'former@campus.edu', avatarUrl: null };
const at = new Date().toISOString();

const suspension: AuditEntry = {
  id: 1,
  createdAt: at,
  admin: ADMIN,
  action: 'user.suspend',
  target: { type: 'user', id: 2 },
  details: { name: 'Ben Larsen', category: 'harassment', reason: 'Insults', emailed: false },
};
const removal: AuditEntry = {
  id: 2,
  createdAt: at,
  admin: ADMIN,
  action: 'report.remove',
  target: { type: 'report', id: 5 },
  details: {
    targetType: 'post',
    targetId: 162,
    reports: 2,
    category: 'spam',
    reason: null,
    content: 'Buy cheap followers',
  },
};
const dismissal: AuditEntry = {
  id: 3,
  createdAt: at,
  admin: null,
  action: 'report.dismiss',
  target: { type: 'report', id: 6 },
  details: { targetType: 'comment', targetId: 34, postId: 12, reports: 1 },
};

/** The audit list answers `entries` (45 in all), with both administrators to filter by. */
function serve(entries: AuditEntry[] = [suspension, removal, dismissal]) {
  return adminApi(({ pathname }) =>
    pathname === '/api/admin/audit'
      ? { status: 200, body: { ...pageOf(entries, 45), admins: [FORMER, ADMIN] } }
      : undefined,
  );
}

const rowOf = async (text: RegExp) => {
  const table = await screen.findByRole('table', { name: 'Admin actions, newest first' });
  return within(table)
    .getAllByRole('row')
    .find((row) => text.test(row.textContent ?? ''))!;
};

afterEach(() => window.localStorage.clear());

describe('AuditPage', () => {
  it('when entries exist, then each reads as a sentence with links to the admin and what it is about', async () => {
    serve();
    renderPage(<AuditPage />, { path: '/admin/audit', signedInAs: ADA });

    const removed = await rowOf(/removed/);
    const [, action, sentence, note] = within(removed).getAllByRole('cell');
    expect(action).toHaveTextContent('Removed reported content');
    expect(sentence).toHaveTextContent('Campus Admin removed post #162 after 2 reports.');
    expect(within(sentence!).getByRole('link', { name: 'post #162' })).toHaveAttribute(
      'href',
      '/post/162',
    );
    expect(within(sentence!).getByRole('link', { name: 'Campus Admin' })).toHaveAttribute(
      'href',
      '/profile/107',
    );
    expect(note).toHaveTextContent('Reason: Spam · Content: “Buy cheap followers”');
    expect(note).not.toHaveTextContent(/targetType|targetId/);

    const suspended = await rowOf(/suspended Ben/);
    expect(suspended).toHaveTextContent('Campus Admin suspended Ben Larsen.');
    expect(within(suspended).getByRole('link', { name: 'Ben Larsen' })).toHaveAttribute(
      'href',
      '/profile/2',
    );
    expect(suspended).toHaveTextContent('Reason: Harassment or bullying: Insults');

    const dismissed = await rowOf(/dismissed/);
    expect(dismissed).toHaveTextContent(
      'A deleted account dismissed 1 report of comment #34 on post #12.',
    );
    expect(within(dismissed).getByRole('link', { name: 'post #12' })).toHaveAttribute(
      'href',
      '/post/12',
    );
  });

  it('when the administrator filters by action, admin and days, then the list is asked for them, from page 1, and can be cleared', async () => {
    const user = userEvent.setup();
    const fetchMock = serve();
    renderPage(<AuditPage />, { path: '/admin/audit?page=2', signedInAs: ADA });
    await screen.findByRole('table', { name: 'Admin actions, newest first' });
    const filters = screen.getByRole('group', { name: 'Filters' });
    const lastQuery = () => callsTo(fetchMock, '/api/admin/audit').at(-1)!.url.searchParams;

    await user.selectOptions(within(filters).getByLabelText('Action'), 'Suspended member');
    await screen.findByText('Page 1 of 3');
    expect(lastQuery().get('action')).toBe('user.suspend');
    expect(lastQuery().get('page')).toBe('1');

    const admins = within(filters).getByLabelText('Admin');
    expect(
      within(admins)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All admins', 'Former Admin', 'Campus Admin']);
    await user.selectOptions(admins, 'Former Admin');
    expect(lastQuery().get('adminId')).toBe('9');

    await user.type(within(filters).getByLabelText('From'), '2026-03-10');
    await user.type(within(filters).getByLabelText('To'), '2026-03-12');
    expect(lastQuery().get('since')).toBe('2026-03-10');
    expect(lastQuery().get('until')).toBe('2026-03-12');
    expect(lastQuery().get('action')).toBe('user.suspend');

    await user.click(within(filters).getByRole('button', { name: 'Clear filters' }));
    const cleared = lastQuery();
    expect(['action', 'adminId', 'since', 'until'].map((name) => cleared.get(name))).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(within(filters).queryByRole('button', { name: 'Clear filters' })).toBeNull();
  });

  it('when no entry matches the filters, then it says so', async () => {
    serve([]);
    renderPage(<AuditPage />, { path: '/admin/audit?action=mail.retry', signedInAs: ADA });
    expect(await screen.findByText('No admin action matches these filters.')).toBeInTheDocument();
  });

  it('auditNote leaves out empty values and raw fields', () => {
    expect(auditNote({ status: 'resolved', reply: '', other: null, targetId: 3 })).toBe('');
    expect(auditNote({ reply: 'Thanks, fixed' })).toBe('Reply: “Thanks, fixed”');
  });
});
