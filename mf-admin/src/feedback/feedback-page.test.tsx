import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminFeedback } from '@campus/contracts';
import { dismissToast } from '@campus/kit/toast';
import { ADA, BEN, callsTo, renderPage } from '@campus/kit/testing';
import { adminApi, pageOf } from '../admin/admin-test-api';
import FeedbackPage from './feedback-page';

const now = new Date().toISOString();
const feedback: AdminFeedback = {
  id: 9,
  message: 'The dark mode toggle is missing.',
  status: 'pending',
  author: { id: BEN.id, name: BEN.name, email: BEN.email, avatarUrl: null },
  reply: null,
  repliedAt: null,
  createdAt: now,
  updatedAt: now,
};

beforeEach(() => act(() => dismissToast()));
afterEach(() => window.localStorage.clear());

describe('FeedbackPage', () => {
  it('when the admin replies, then the status and the reply are sent and the toast says the member will see it', async () => {
    const fetchMock = adminApi(({ method, pathname }) => {
      if (method === 'GET' && pathname === '/api/admin/feedback')
        return { status: 200, body: pageOf([feedback]) };
      if (method === 'PUT' && pathname === '/api/admin/feedback/9')
        return { status: 200, body: { ...feedback, status: 'resolved', reply: 'Coming soon' } };
      return undefined;
    });
    renderPage(<FeedbackPage />, { path: '/admin/feedback', signedInAs: ADA });
    const row = await screen.findByRole('article', { name: 'Feedback from Ben Larsen' });
    expect(within(row).getByText('The dark mode toggle is missing.')).toBeInTheDocument();
    await userEvent.click(
      within(row).getByRole('button', { name: 'Reply to feedback from Ben Larsen' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Feedback from Ben Larsen' });
    expect(within(dialog).getByLabelText('Status')).toHaveValue('pending');
    await userEvent.selectOptions(within(dialog).getByLabelText('Status'), 'In progress');
    await userEvent.type(
      within(dialog).getByLabelText('Reply to the member (optional)'),
      '  Coming soon ',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('Reply sent')).toBeInTheDocument();
    expect(screen.getByText('Ben Larsen will see it in their notifications.')).toBeInTheDocument();
    const [call] = callsTo(fetchMock, '/api/admin/feedback/9', 'PUT');
    expect(JSON.parse(String(call?.init.body))).toEqual({
      status: 'in_progress',
      reply: 'Coming soon',
    });
  });

  it('when only the status changes, then no reply is sent', async () => {
    const fetchMock = adminApi(({ method, pathname }) => {
      if (method === 'GET' && pathname === '/api/admin/feedback')
        return { status: 200, body: pageOf([feedback]) };
      if (method === 'PUT') return { status: 200, body: { ...feedback, status: 'resolved' } };
      return undefined;
    });
    renderPage(<FeedbackPage />, { path: '/admin/feedback', signedInAs: ADA });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Reply to feedback from Ben Larsen' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Feedback from Ben Larsen' });
    await userEvent.selectOptions(within(dialog).getByLabelText('Status'), 'Resolved');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save status' }));
    expect(await screen.findByText('Feedback updated')).toBeInTheDocument();
    const [call] = callsTo(fetchMock, '/api/admin/feedback/9', 'PUT');
    expect(JSON.parse(String(call?.init.body))).toEqual({ status: 'resolved' });
  });

  it('when the dialog opens, then nothing is preselected: it shows the status the feedback has, and a reply is sent without resolving it', async () => {
    const fetchMock = adminApi(({ method, pathname }) => {
      if (method === 'GET' && pathname === '/api/admin/feedback')
        return { status: 200, body: pageOf([feedback]) };
      if (method === 'PUT') return { status: 200, body: { ...feedback, reply: 'Thanks!' } };
      return undefined;
    });
    renderPage(<FeedbackPage />, { path: '/admin/feedback', signedInAs: ADA });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Reply to feedback from Ben Larsen' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Feedback from Ben Larsen' });
    expect(within(dialog).getByLabelText('Status')).toHaveValue('pending');
    // Nothing to save yet: the status is the one it has, and no reply is written.
    expect(within(dialog).getByRole('button', { name: 'Save status' })).toBeDisabled();
    await userEvent.type(
      within(dialog).getByLabelText('Reply to the member (optional)'),
      'Thanks!',
    );
    expect(within(dialog).queryByRole('button', { name: 'Save status' })).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('Reply sent')).toBeInTheDocument();
    const [call] = callsTo(fetchMock, '/api/admin/feedback/9', 'PUT');
    expect(JSON.parse(String(call?.init.body))).toEqual({ status: 'pending', reply: 'Thanks!' });
  });

  it('when the list cannot be read, then the page says so with Retry, which reads it again', async () => {
    let failing = true;
    const fetchMock = adminApi(({ pathname }) =>
      pathname === '/api/admin/feedback'
        ? failing
          ? { status: 500, body: { message: 'boom' } }
          : { status: 200, body: pageOf([]) }
        : undefined,
    );
    renderPage(<FeedbackPage />, { path: '/admin/feedback', signedInAs: ADA });
    expect(await screen.findByText('Could not load feedback')).toBeInTheDocument();
    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No feedback is waiting for a reply.')).toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/admin/feedback')).toHaveLength(2);
  });
});
