import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminReport } from '@campus/contracts';
import { dismissToast } from '@campus/kit/toast';
import { ADA, callsTo, makeImage, renderPage } from '@campus/kit/testing';
import { adminApi, pageOf } from '../admin/admin-test-api';
import ReportsPage from './reports-page';

const now = new Date().toISOString();
const report: AdminReport = {
  id: 4,
  targetType: 'post',
  targetId: 70,
  status: 'open',
  target: {
    content: 'Buy cheap followers at spam.example',
    postId: 70,
    author: { id: 2, name: 'Ben Larsen', email: 'ben@campus.edu', avatarUrl: null },
    removed: false,
  },
  reasons: [
    { category: 'spam', reason: null, createdAt: now },
    { category: 'other', reason: 'Advertising', createdAt: now },
  ],
  categories: ['spam', 'other'],
  reportCount: 2,
  createdAt: now,
  lastReportedAt: now,
  resolution: null,
};

function serve(listed: AdminReport = report) {
  return adminApi(({ method, pathname }) => {
    if (method === 'GET' && pathname === '/api/admin/reports')
      return { status: 200, body: pageOf([listed]) };
    if (method === 'POST' && pathname === '/api/admin/reports/4/resolve')
      return { status: 200, body: { ...report, status: 'resolved' } };
    return undefined;
  });
}

beforeEach(() => act(() => dismissToast()));
afterEach(() => window.localStorage.clear());

describe('ReportsPage', () => {
  it('when a reported post has images, then they show blurred, none fetched, until the administrator clicks to see them', async () => {
    const user = userEvent.setup();
    const images = [
      makeImage({ id: 'r1', alt: 'A flyer' }),
      makeImage({ id: 'r2', alt: 'A price list' }),
    ];
    serve({ ...report, target: { ...report.target, images } });
    renderPage(<ReportsPage />, { path: '/admin/reports', signedInAs: ADA });
    const row = await screen.findByRole('article', { name: 'Reported post by Ben Larsen' });
    expect(row.querySelector('img, source')).toBeNull();
    await user.click(within(row).getByRole('button', { name: 'Show the 2 reported images' }));
    expect(within(row).getByRole('img', { name: 'A flyer' })).toBeInTheDocument();
    expect(within(row).getByRole('img', { name: 'A price list' })).toBeInTheDocument();
  });

  it('when a reported post has no images, then no image area shows', async () => {
    serve();
    renderPage(<ReportsPage />, { path: '/admin/reports', signedInAs: ADA });
    const row = await screen.findByRole('article', { name: 'Reported post by Ben Larsen' });
    expect(within(row).queryByRole('button', { name: /reported image/ })).not.toBeInTheDocument();
  });

  it('when a post is reported twice, then one entry shows the post, its author and both categories with their words', async () => {
    serve();
    renderPage(<ReportsPage />, { path: '/admin/reports', signedInAs: ADA });
    const row = await screen.findByRole('article', { name: 'Reported post by Ben Larsen' });
    expect(within(row).getByText('2 reports')).toBeInTheDocument();
    expect(within(row).getByText('Buy cheap followers at spam.example')).toBeInTheDocument();
    const reasons = within(row).getByRole('list', { name: 'Reasons' });
    expect(
      within(reasons)
        .getAllByRole('listitem')
        .map((item) => item.textContent?.replace(/\s*just now$|\s*\d+\w? ago$/, '')),
    ).toEqual(['Spam', 'Something else Advertising']);
    expect(within(row).getByRole('link', { name: 'Open post' })).toHaveAttribute(
      'href',
      '/post/70',
    );
  });

  it('when the admin removes the post, then a reason is chosen first and sent with remove', async () => {
    const fetchMock = serve();
    renderPage(<ReportsPage />, { path: '/admin/reports', signedInAs: ADA });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Remove post (post by Ben Larsen)' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Remove post?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove post' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Choose a category');
    expect(callsTo(fetchMock, '/api/admin/reports/4/resolve', 'POST')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await userEvent.type(
      within(dialog).getByLabelText('Words for the member (optional)'),
      'Selling followers',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove post' }));
    expect(await screen.findByText('Removed')).toBeInTheDocument();
    const [call] = callsTo(fetchMock, '/api/admin/reports/4/resolve', 'POST');
    expect(JSON.parse(String(call?.init.body))).toEqual({
      action: 'remove',
      category: 'spam',
      reason: 'Selling followers',
    });
  });

  it('when the admin picks a category filter, then the list is asked for that category', async () => {
    const fetchMock = serve();
    renderPage(<ReportsPage />, { path: '/admin/reports', signedInAs: ADA });
    await screen.findByRole('article', { name: 'Reported post by Ben Larsen' });
    await userEvent.selectOptions(screen.getByLabelText('Category'), 'Hate');
    const asked = () =>
      callsTo(fetchMock, '/api/admin/reports', 'GET').map((c) =>
        c.url.searchParams.get('category'),
      );
    await waitFor(() => expect(asked()).toContain('hate'));
  });

  it('when the admin dismisses, then it is resolved with dismiss at once', async () => {
    const fetchMock = serve();
    renderPage(<ReportsPage />, { path: '/admin/reports', signedInAs: ADA });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Dismiss the reports of the post by Ben Larsen' }),
    );
    expect(await screen.findByText('Report dismissed')).toBeInTheDocument();
    const [call] = callsTo(fetchMock, '/api/admin/reports/4/resolve', 'POST');
    expect(JSON.parse(String(call?.init.body))).toEqual({ action: 'dismiss' });
  });

  it('when a reported post is already gone, then its open entry offers no "Remove post", only Dismiss', async () => {
    serve({ ...report, target: { ...report.target, removed: true } });
    renderPage(<ReportsPage />, { path: '/admin/reports', signedInAs: ADA });
    const row = await screen.findByRole('article', { name: 'Reported post by Ben Larsen' });
    expect(within(row).getByText('Removed')).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /Remove post/ })).not.toBeInTheDocument();
    expect(within(row).getByRole('button', { name: /^Dismiss/ })).toBeEnabled();
  });

  it('when a case was closed because its post was deleted, then it says so', async () => {
    serve({
      ...report,
      status: 'resolved',
      target: { ...report.target, removed: true },
      resolution: { action: 'gone', resolvedAt: now, reason: null },
    });
    renderPage(<ReportsPage />, { path: '/admin/reports?status=resolved', signedInAs: ADA });
    const row = await screen.findByRole('article', { name: 'Reported post by Ben Larsen' });
    expect(row).toHaveTextContent(/Closed: it was deleted just now/);
    expect(within(row).queryByRole('button')).not.toBeInTheDocument();
  });
});
