import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminAppeal } from '@campus/contracts';
import { dismissToast } from '@campus/kit/toast';
import { ADA, callsTo, renderPage } from '@campus/kit/testing';
import { adminApi, pageOf } from '../admin/admin-test-api';
import AppealsPage from './appeals-page';

const now = new Date().toISOString();
const appeal: AdminAppeal = {
  id: 9,
  status: 'pending',
  text: 'It was a joke between friends.',
  createdAt: now,
  decidedAt: null,
  response: null,
  member: { id: 2, name: 'Ben Larsen', email: 'ben@campus.edu', avatarUrl: null },
  decision: {
    id: 5,
    kind: 'post_removal',
    reason: { category: 'harassment', text: 'Mocks a classmate' },
    content: 'A misunderstood joke',
    postId: 70,
    decidedAt: now,
  },
};

function serve() {
  return adminApi(({ method, pathname }) => {
    if (method === 'GET' && pathname === '/api/admin/appeals')
      return { status: 200, body: pageOf([appeal]) };
    if (method === 'POST' && pathname === '/api/admin/appeals/9/decide')
      return { status: 200, body: { ...appeal, status: 'lifted', decidedAt: now } };
    return undefined;
  });
}

beforeEach(() => act(() => dismissToast()));
afterEach(() => window.localStorage.clear());

describe('AppealsPage', () => {
  it('when an appeal waits, then it shows the decision, its reason, what was removed and what the member says', async () => {
    serve();
    renderPage(<AppealsPage />, { path: '/admin/appeals', signedInAs: ADA });
    const row = await screen.findByRole('article', { name: 'Appeal by Ben Larsen' });
    expect(within(row).getByText('Removed post')).toBeInTheDocument();
    expect(
      within(row).getByText(/Reason given: Harassment or bullying \(Mocks a classmate\)/),
    ).toBeInTheDocument();
    expect(within(row).getByText('A misunderstood joke')).toBeInTheDocument();
    expect(within(row).getByText('It was a joke between friends.')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Open post' })).toHaveAttribute(
      'href',
      '/post/70',
    );
  });

  it('when the admin lifts it with words for the member, then the outcome and the words are sent', async () => {
    const fetchMock = serve();
    renderPage(<AppealsPage />, { path: '/admin/appeals', signedInAs: ADA });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Lift the decision appealed by Ben Larsen' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Lift the decision?' });
    expect(dialog).toHaveTextContent('The post is restored for everyone.');
    await userEvent.type(
      within(dialog).getByLabelText('Words for the member (optional)'),
      'Fair enough.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Lift' }));
    expect(await screen.findByText('Appeal lifted')).toBeInTheDocument();
    const [call] = callsTo(fetchMock, '/api/admin/appeals/9/decide', 'POST');
    expect(JSON.parse(String(call?.init.body))).toEqual({
      outcome: 'lift',
      response: 'Fair enough.',
    });
  });

  it('when the admin upholds it without words, then only the outcome is sent', async () => {
    const fetchMock = serve();
    renderPage(<AppealsPage />, { path: '/admin/appeals', signedInAs: ADA });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Uphold the decision appealed by Ben Larsen' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Uphold the decision?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Uphold' }));
    expect(await screen.findByText('Appeal upheld')).toBeInTheDocument();
    const [call] = callsTo(fetchMock, '/api/admin/appeals/9/decide', 'POST');
    expect(JSON.parse(String(call?.init.body))).toEqual({ outcome: 'uphold' });
  });
});
