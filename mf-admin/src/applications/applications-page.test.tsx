import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminApplication } from '@campus/contracts';
import { dismissToast } from '@campus/kit/toast';
import { ADA, callsTo, mockApi, renderPage, type ApiHandler } from '@campus/kit/testing';
import { keys, useCallData } from '@campus/kit/data';
import ApplicationsPage from './applications-page';

/** Stands for the shell's Admin section, which reads the summary counts. */
function SummaryReader() {
  const { data } = useCallData(keys.adminSummary());
  return <output aria-label="pending count">{data?.pendingApplications}</output>;
}

const now = new Date().toISOString();
const grace: AdminApplication = {
  id: 5,
  name: 'Grace Hopper',
  contactInfo: 'grace@navy.example',
  message: 'Class of 1934, mathematics.',
  status: 'pending',
  email: 'grace@navy.example',
  createdAt: now,
  decidedAt: null,
  rejectionReason: null,
};
const alan: AdminApplication = {
  ...grace,
  id: 6,
  name: 'Alan Turing',
  contactInfo: 'Phone +44 20 0000 0000',
  message: "King's College, 1934.",
  email: null,
};

const page = (items: AdminApplication[]) => ({ items, total: items.length, page: 1, pageSize: 20 });

function serve(extra: ApiHandler = () => undefined) {
  return mockApi(
    async (call) =>
      (await extra(call)) ??
      (call.method === 'GET' && call.pathname === '/api/admin/applications'
        ? {
            status: 200,
            body: page(call.url.searchParams.get('status') === 'pending' ? [grace, alan] : []),
          }
        : call.pathname === '/api/admin/summary'
          ? { status: 200, body: { pendingApplications: 2, openReports: 0, pendingFeedback: 0 } }
          : undefined),
    { roles: ['member', 'admin'] },
  );
}

const renderApplications = (path = '/admin/applications') =>
  renderPage(
    <>
      <ApplicationsPage />
      <SummaryReader />
    </>,
    { path, signedInAs: ADA },
  );

beforeEach(() => act(() => dismissToast()));
afterEach(() => window.localStorage.clear());

describe('ApplicationsPage', () => {
  it('when opened, then the pending applications show with their contact and message', async () => {
    const fetchMock = serve();
    renderApplications();
    const list = await screen.findByRole('list', { name: 'Pending applications' });
    expect(within(list).getByRole('heading', { name: 'Grace Hopper' })).toBeInTheDocument();
    expect(within(list).getByText('Class of 1934, mathematics.')).toBeInTheDocument();
    expect(within(list).getByText('Phone +44 20 0000 0000')).toBeInTheDocument();
    const [call] = callsTo(fetchMock, '/api/admin/applications');
    expect(call?.url.searchParams.get('status')).toBe('pending');
  });

  it('when one applicant applied three times, then one row shows the newest with a count and the earlier two behind a disclosure', async () => {
    const earlier = [
      {
        id: 3,
        status: 'pending' as const,
        message: 'Second try.',
        createdAt: now,
        decidedAt: null,
      },
      { id: 1, status: 'rejected' as const, message: 'First try.', createdAt: now, decidedAt: now },
    ];
    serve(({ method, pathname }) =>
      method === 'GET' && pathname === '/api/admin/applications'
        ? {
            status: 200,
            body: page([
              { ...grace, earlier },
              { ...alan, earlier: [] },
            ]),
          }
        : undefined,
    );
    renderApplications();
    const list = await screen.findByRole('list', { name: 'Pending applications' });
    const row = within(list).getByRole('article', { name: 'Grace Hopper' });
    expect(within(row).getByText('3 applications')).toBeInTheDocument();
    const disclosure = within(row).getByText('2 earlier applications');
    const history = within(row).getByRole('list', {
      name: 'Earlier applications of Grace Hopper',
      hidden: true,
    });
    expect(history).not.toBeVisible();
    await userEvent.click(disclosure);
    expect(history).toBeVisible();
    expect(
      within(history)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Applied just now·PendingSecond try.', 'Applied just now·RejectedFirst try.']);
    expect(row).toHaveTextContent('Approving or rejecting decides the pending one too.');
    // Only one row per applicant: Alan's has no history and no count.
    const alanRow = within(list).getByRole('article', { name: 'Alan Turing' });
    expect(within(alanRow).queryByText(/applications$/)).toBeNull();
    expect(within(list).getAllByRole('article')).toHaveLength(2);
  });

  it('when an application is approved, then the invitation link shows with a copy button and the lists and counts are read again', async () => {
    const invitationUrl = 'http://localhost:3000/register?invitation=abc123';
    const fetchMock = serve(({ method, pathname }) =>
      method === 'POST' && pathname === '/api/admin/applications/6/approve'
        ? {
            status: 200,
            body: {
              invitationUrl,
              expiresAt: '2026-12-12T12:00:00.000Z',
              emailed: false,
              application: { ...alan, status: 'approved', decidedAt: now },
            },
          }
        : undefined,
    );
    const writeText = jest.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderApplications();
    await userEvent.click(await screen.findByRole('button', { name: 'Approve Alan Turing' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invitation created' });
    // One date format across the apps (issue 41), not the browser locale's "12/12/2026".
    expect(dialog).toHaveAccessibleDescription(
      'Alan Turing can register with this link until Dec 12, 2026. It works once.',
    );
    const link = within(dialog).getByLabelText('Invitation link for hand delivery');
    expect(link).toHaveValue(invitationUrl);
    expect(link).toHaveAccessibleDescription(
      'The contact information has no e-mail address: send the link another way. Whoever registers with this link verifies their e-mail address by mail.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy invitation link' }));
    expect(writeText).toHaveBeenCalledWith(invitationUrl);
    expect(await screen.findByText('Link copied')).toBeInTheDocument();
    await waitFor(() => expect(callsTo(fetchMock, '/api/admin/applications')).toHaveLength(2));
    await waitFor(() => expect(callsTo(fetchMock, '/api/admin/summary')).toHaveLength(2));
  });

  it('when an application is rejected with a reason, then the reason is sent', async () => {
    const fetchMock = serve(({ method, pathname }) =>
      method === 'POST' && pathname === '/api/admin/applications/5/reject'
        ? { status: 200, body: { emailed: true, application: { ...grace, status: 'rejected' } } }
        : undefined,
    );
    renderApplications();
    await userEvent.click(await screen.findByRole('button', { name: 'Reject Grace Hopper' }));
    const dialog = await screen.findByRole('dialog', { name: "Reject Grace Hopper's application" });
    await userEvent.type(within(dialog).getByLabelText('Reason (optional)'), 'Not an alum');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Application rejected')).toBeInTheDocument();
    const [call] = callsTo(fetchMock, '/api/admin/applications/5/reject', 'POST');
    expect(JSON.parse(String(call?.init.body))).toEqual({ reason: 'Not an alum' });
  });

  it('when the application was already decided (409), then the toast says so', async () => {
    serve(({ method, pathname }) =>
      method === 'POST' && pathname === '/api/admin/applications/5/approve'
        ? { status: 409, body: { message: 'This application was already approved' } }
        : undefined,
    );
    renderApplications();
    await userEvent.click(await screen.findByRole('button', { name: 'Approve Grace Hopper' }));
    expect(await screen.findByText('This application was already approved')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('when another status is chosen, then that list is read from the first page and kept in the URL', async () => {
    const fetchMock = serve();
    renderApplications('/admin/applications?page=3');
    await screen.findByLabelText('Status');
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Approved');
    expect(await screen.findByText('No application has been approved yet.')).toBeInTheDocument();
    const last = callsTo(fetchMock, '/api/admin/applications').at(-1);
    expect(last?.url.searchParams.get('status')).toBe('approved');
    expect(last?.url.searchParams.get('page')).toBe('1');
  });
});
