import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ALREADY_REPORTED_MESSAGE } from '@campus/contracts';
import { dismissToast } from '@campus/kit/toast';
import { ADA, BEN, callsTo, mockApi, renderPage } from '@campus/kit/testing';
import { ReportMenu } from './report-menu';

beforeEach(() => act(() => dismissToast()));
afterEach(() => window.localStorage.clear());

function renderMenu(authorId = BEN.id) {
  return renderPage(
    <article>
      <p>Library is open late this week</p>
      <ReportMenu
        targetType="post"
        targetId={70}
        authorId={authorId}
        label="Report post"
        menuLabel="More actions for this post"
      />
    </article>,
    { signedInAs: ADA },
  );
}

async function openDialog() {
  await userEvent.click(await screen.findByRole('button', { name: 'More actions for this post' }));
  await userEvent.click(screen.getByRole('menuitem', { name: 'Report post' }));
  return screen.findByRole('dialog', { name: 'Report post' });
}

describe('ReportMenu and ReportDialog', () => {
  it('when a member chooses a category and adds details, then the report is posted, a toast thanks them and the dialog closes', async () => {
    const fetchMock = mockApi(({ method, path }) =>
      method === 'POST' && path === '/api/reports'
        ? {
            status: 201,
            body: { id: 1, targetType: 'post', targetId: 70, createdAt: new Date().toISOString() },
          }
        : undefined,
    );
    renderMenu();
    await openDialog();
    const group = screen.getByRole('radiogroup', { name: 'What is wrong?' });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual([
      'spam',
      'harassment',
      'hate',
      'violence',
      'sexual',
      'misinformation',
      'impersonation',
      'other',
    ]);
    expect(screen.getByRole('radio', { name: 'Spam' })).toHaveFocus();
    await userEvent.click(screen.getByRole('radio', { name: 'Harassment or bullying' }));
    await userEvent.type(screen.getByLabelText('Details (optional)'), '  Mocks a classmate  ');
    await userEvent.click(screen.getByRole('button', { name: 'Send report' }));
    expect(await screen.findByText('Report sent')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [call] = callsTo(fetchMock, '/api/reports', 'POST');
    expect(JSON.parse(String(call?.init.body))).toEqual({
      targetType: 'post',
      targetId: 70,
      category: 'harassment',
      reason: 'Mocks a classmate',
    });
  });

  it('when a category is chosen without details, then no words are sent', async () => {
    const fetchMock = mockApi(({ method, path }) =>
      method === 'POST' && path === '/api/reports'
        ? {
            status: 201,
            body: { id: 2, targetType: 'post', targetId: 70, createdAt: new Date().toISOString() },
          }
        : undefined,
    );
    renderMenu();
    await openDialog();
    await userEvent.click(screen.getByRole('radio', { name: 'Something else' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send report' }));
    expect(await screen.findByText('Report sent')).toBeInTheDocument();
    const [call] = callsTo(fetchMock, '/api/reports', 'POST');
    expect(JSON.parse(String(call?.init.body))).toEqual({
      targetType: 'post',
      targetId: 70,
      category: 'other',
    });
  });

  it('when no category is chosen, then nothing is sent and the group asks for one', async () => {
    const fetchMock = mockApi();
    renderMenu();
    await openDialog();
    await userEvent.type(screen.getByLabelText('Details (optional)'), 'Spam');
    await userEvent.click(screen.getByRole('button', { name: 'Send report' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose a category');
    expect(screen.getByRole('radiogroup', { name: 'What is wrong?' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(callsTo(fetchMock, '/api/reports', 'POST')).toHaveLength(0);
  });

  it('when the member already reported it (409), then the toast says so and the dialog closes', async () => {
    mockApi(({ method, path }) =>
      method === 'POST' && path === '/api/reports'
        ? { status: 409, body: { message: ALREADY_REPORTED_MESSAGE } }
        : undefined,
    );
    renderMenu();
    await openDialog();
    await userEvent.click(screen.getByRole('radio', { name: 'Spam' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send report' }));
    expect(await screen.findByText(ALREADY_REPORTED_MESSAGE)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('when the server answers 404 (the post is gone), then its message stays under the field with the choice kept', async () => {
    mockApi(({ method, path }) =>
      method === 'POST' && path === '/api/reports'
        ? { status: 404, body: { message: 'Post not found' } }
        : undefined,
    );
    renderMenu();
    await openDialog();
    await userEvent.click(screen.getByRole('radio', { name: 'Spam' }));
    await userEvent.type(screen.getByLabelText('Details (optional)'), 'Ads');
    await userEvent.click(screen.getByRole('button', { name: 'Send report' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Post not found');
    expect(screen.getByRole('dialog', { name: 'Report post' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Spam' })).toBeChecked();
    expect(screen.getByLabelText('Details (optional)')).toHaveValue('Ads');
  });

  it('when Escape is pressed, then the dialog closes and focus returns to the menu button', async () => {
    mockApi();
    renderMenu();
    await openDialog();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'More actions for this post' })).toHaveFocus(),
    );
  });

  it('when used from the keyboard, then the menu opens on its first item (Mute) and Escape closes it on the button', async () => {
    mockApi();
    renderMenu();
    const button = await screen.findByRole('button', { name: 'More actions for this post' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('menuitem', { name: 'Mute this member' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it('when the signed-in member wrote it, then there is no menu to report it', async () => {
    mockApi();
    renderMenu(ADA.id);
    await screen.findByText('Library is open late this week');
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(
      screen.queryByRole('button', { name: 'More actions for this post' }),
    ).not.toBeInTheDocument();
  });
  it('when the menu sits in a clickable card, then using it does not click the card', async () => {
    mockApi();
    const openCard = jest.fn();
    renderPage(
      <article onClick={openCard}>
        <ReportMenu targetType="post" targetId={70} authorId={BEN.id} label="Report post" />
      </article>,
      { signedInAs: ADA },
    );
    await userEvent.click(await screen.findByRole('button', { name: 'More actions' }));
    await userEvent.click(screen.getByRole('menu'));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Report post' }));
    await userEvent.click(await screen.findByRole('dialog', { name: 'Report post' }));
    expect(openCard).not.toHaveBeenCalled();
  });
});
