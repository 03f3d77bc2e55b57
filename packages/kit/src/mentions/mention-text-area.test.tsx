import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import type { MentionCandidate } from '@campus/contracts';
import { configureApi } from '@campus/kit/api';
import { MentionTextArea, useMentionPicks } from '@campus/kit/mentions';
import { callsTo, mockApi, renderWithTheme, TEST_API_URL } from '@campus/kit/testing';
import { Dialog } from '@campus/kit/ui';
import { MENTION_DEBOUNCE_MS } from './mention-suggestions';

const ben: MentionCandidate = {
  id: 2,
  name: 'Ben Larsen',
  email: 'ben.larsen@campus.edu',
  avatarUrl: null,
  isFollowing: true,
};
const bea: MentionCandidate = {
  id: 5,
  name: 'Bea Quist',
  email: 'bea@campus.edu',
  avatarUrl: null,
  isFollowing: false,
};

/** The fake API's mention suggestions: members whose name starts with q (followed first). */
function serveSuggestions() {
  return mockApi(({ pathname, url }) => {
    if (pathname !== '/api/users/mention-suggestions') return undefined;
    const q = (url.searchParams.get('q') ?? '').toLowerCase();
    return {
      status: 200,
      body: [ben, bea].filter((member) => member.name.toLowerCase().startsWith(q)),
    };
  });
}

/** A field in a dialog, as the composers use it; shows what a writing call would send. */
function Field() {
  const [open, setOpen] = useState(true);
  const [text, setText] = useState('');
  const mentions = useMentionPicks();
  return (
    <>
      <output data-testid="sent">{JSON.stringify(mentions.idsIn(text))}</output>
      <output data-testid="dialog">{open ? 'open' : 'closed'}</output>
      <Dialog open={open} onOpenChange={setOpen} title="Write">
        <MentionTextArea
          label="Text"
          value={text}
          onValueChange={setText}
          onMention={mentions.add}
        />
      </Dialog>
    </>
  );
}

/** The field alone, outside a dialog. */
function Plain() {
  const [text, setText] = useState('');
  return (
    <MentionTextArea
      label="Text"
      value={text}
      onValueChange={setText}
      onMention={() => undefined}
    />
  );
}

async function renderField() {
  renderWithTheme(<Field />);
  return screen.findByRole('textbox', { name: 'Text' });
}

beforeEach(() => configureApi({ baseUrl: TEST_API_URL }));

describe('MentionTextArea (issue 40)', () => {
  it('suggests members after @ and picks one with the keyboard, sending their id', async () => {
    const fetchMock = serveSuggestions();
    const field = await renderField();
    expect(field).toHaveAttribute('aria-autocomplete', 'list');
    await userEvent.type(field, 'Thanks @Be');
    const list = await screen.findByRole('listbox', { name: 'Members to mention' });
    expect(field).toHaveAttribute('aria-controls', list.id);
    const options = screen.getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'BLBen Larsen@ben.larsenFollowing',
      'BQBea Quist@bea',
    ]);
    // the first is active; the arrows move (and wrap)
    expect(field).toHaveAttribute('aria-activedescendant', options[0]!.id);
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{ArrowDown}');
    expect(field).toHaveAttribute('aria-activedescendant', options[1]!.id);
    await userEvent.keyboard('{ArrowDown}');
    expect(field).toHaveAttribute('aria-activedescendant', options[0]!.id);
    await userEvent.keyboard('{ArrowUp}{Enter}');
    expect(field).toHaveValue('Thanks @Bea Quist ');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(field).not.toHaveAttribute('aria-activedescendant');
    expect(screen.getByTestId('sent')).toHaveTextContent('[5]');
    // typing goes on after the inserted name
    await userEvent.type(field, 'and @');
    expect(await screen.findByRole('listbox')).toBeInTheDocument();
    await userEvent.keyboard('{Tab}');
    expect(field).toHaveValue('Thanks @Bea Quist and @Ben Larsen ');
    expect(screen.getByTestId('sent')).toHaveTextContent('[5,2]');
    expect(callsTo(fetchMock, '/api/users/mention-suggestions').at(-1)?.url.search).toBe('?q=');
  });

  it('asks once typing pauses, not at every keystroke', async () => {
    jest.useFakeTimers();
    try {
      const fetchMock = serveSuggestions();
      const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
      renderWithTheme(<Plain />);
      const field = screen.getByRole('textbox', { name: 'Text' });
      await user.type(field, '@Be');
      // the list's code is fetched at the first '@'; then keystrokes within the pause are one ask
      await act(async () => {
        await jest.advanceTimersByTimeAsync(MENTION_DEBOUNCE_MS - 1);
      });
      expect(callsTo(fetchMock, '/api/users/mention-suggestions')).toHaveLength(0);
      await act(async () => {
        await jest.advanceTimersByTimeAsync(1);
      });
      expect(
        callsTo(fetchMock, '/api/users/mention-suggestions').map(({ url }) => url.search),
      ).toEqual(['?q=Be']);
      expect(await screen.findByRole('listbox')).toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
  });

  it('closes the list with Escape and leaves the dialog open; the same @ stays closed', async () => {
    serveSuggestions();
    const field = await renderField();
    await userEvent.type(field, '@B');
    await screen.findByRole('listbox');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(screen.getByTestId('dialog')).toHaveTextContent('open');
    await userEvent.type(field, 'e');
    // Enter is a new line again while no list is shown
    await userEvent.keyboard('{Enter}');
    expect(field).toHaveValue('@Be\n');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    // with the list closed, Escape is the dialog's again
    await userEvent.keyboard('{Escape}');
    expect(screen.getByTestId('dialog')).toHaveTextContent('closed');
  });

  it('picks with a tap or a click, keeping the focus in the field', async () => {
    serveSuggestions();
    const field = await renderField();
    await userEvent.type(field, 'Ask @');
    await userEvent.click(await screen.findByRole('option', { name: /Ben Larsen/ }));
    expect(field).toHaveValue('Ask @Ben Larsen ');
    expect(field).toHaveFocus();
    expect(screen.getByTestId('sent')).toHaveTextContent('[2]');
    // deleting the name from the text takes the member out of `mentions`
    fireEvent.change(field, { target: { value: 'Ask nobody' } });
    expect(screen.getByTestId('sent')).toHaveTextContent('[]');
  });

  it('shows no list when nobody matches or the request fails, and Enter stays a new line', async () => {
    const fetchMock = mockApi(({ pathname, url }) =>
      pathname === '/api/users/mention-suggestions'
        ? url.searchParams.get('q') === 'zz'
          ? { status: 200, body: [] }
          : { status: 500, body: { message: 'Internal server error' } }
        : undefined,
    );
    const field = await renderField();
    await userEvent.type(field, '@zz');
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    // the answer (none) has arrived and been read
    await act(async () => {
      await (fetchMock.mock.results.at(-1)?.value as Promise<Response>).then((r) => r.text());
    });
    await userEvent.keyboard('{Enter}');
    expect(field).toHaveValue('@zz\n');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    // a failed request offers nobody either
    await userEvent.type(field, '@Ben');
    await waitFor(() =>
      expect(callsTo(fetchMock, '/api/users/mention-suggestions').at(-1)?.url.search).toBe(
        '?q=Ben',
      ),
    );
    await act(async () => {
      await (fetchMock.mock.results.at(-1)?.value as Promise<Response>).then((r) => r.text());
    });
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });
});
