import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { useNotifications } from '@campus/kit/data';
import { dismissToast } from '@campus/kit/toast';
import { ADA, renderPage, mockApi } from '@campus/kit/testing';
import { FeedbackDialog } from './feedback-dialog';

function Harness() {
  const [open, setOpen] = useState(false);
  useNotifications(); // as the shell's badge does
  return (
    <>
      <button onClick={() => setOpen(true)}>Feedback</button>
      <FeedbackDialog open={open} onOpenChange={setOpen} />
    </>
  );
}

async function openDialog() {
  renderPage(<Harness />, { path: '/', route: '/', signedInAs: ADA });
  const opener = screen.getByRole('button', { name: 'Feedback' });
  await userEvent.click(opener);
  return { opener, dialog: screen.getByRole('dialog', { name: 'Send Feedback' }) };
}

beforeEach(() => act(() => dismissToast()));
afterEach(() => window.localStorage.clear());

describe('FeedbackDialog', () => {
  it('has one 5-row field and sends only trimmed, non-empty text', async () => {
    const fetchMock = mockApi(({ method, path }) =>
      method === 'POST' && path === '/api/feedback' ? { status: 201, body: { id: 1 } } : undefined,
    );
    const { opener } = await openDialog();
    const field = screen.getByRole('textbox');
    expect(field).toHaveAttribute('rows', '5');
    expect(field).toHaveFocus();
    const send = screen.getByRole('button', { name: 'Send Feedback' });
    expect(send).toBeDisabled();
    await userEvent.type(field, '   ');
    expect(send).toBeDisabled();
    await userEvent.type(field, ' More study rooms please ');
    await userEvent.click(send);
    expect(await screen.findByText('Feedback sent!')).toBeInTheDocument();
    expect(
      screen.getByText("Thank you for your feedback. We'll review it soon."),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
    expect(fetchMock).toHaveBeenCalledWith(
      'http://api.test/api/feedback',
      expect.objectContaining({
        method: 'POST',
        body: JSON.stringify({ feedback: 'More study rooms please' }),
      }),
    );
    // the notifications are refreshed (the admin may be the sender)
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/api/notifications'))).toBe(
        true,
      ),
    );
  });

  it('keeps the text and shows the failure toast', async () => {
    mockApi(({ path }) => (path === '/api/feedback' ? { status: 500, body: {} } : undefined));
    await openDialog();
    await userEvent.type(screen.getByRole('textbox'), 'Broken');
    await userEvent.click(screen.getByRole('button', { name: 'Send Feedback' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'ErrorFailed to send feedback. Please try again.',
    );
    expect(screen.getByRole('textbox')).toHaveValue('Broken');
  });

  it('closes on Cancel and on Escape', async () => {
    mockApi(() => undefined);
    await openDialog();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Feedback' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
