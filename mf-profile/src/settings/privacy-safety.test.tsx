import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SafetyLists } from '@campus/contracts';
import { dismissToast } from '@campus/kit/toast';
import { ADA, BEN, callsTo, mockApi, renderPage } from '@campus/kit/testing';
import { PrivacyAndSafety } from './privacy-safety';

afterEach(() => act(() => dismissToast()));

const since = new Date('2026-11-01T10:00:00Z').toISOString();

/** An API holding Ada's lists: Ben blocked, then unblocked; words added and removed. */
function apiWith(lists: SafetyLists) {
  let current = lists;
  return mockApi(({ method, pathname, init }) => {
    if (method === 'GET' && pathname === '/api/safety') return { status: 200, body: current };
    if (method === 'DELETE' && pathname === `/api/users/${BEN.id}/block`) {
      current = { ...current, blocked: [] };
      return { status: 200, body: { userId: BEN.id, blocked: false } };
    }
    if (method === 'POST' && pathname === '/api/safety/muted-words') {
      const { phrase } = JSON.parse(String(init.body)) as { phrase: string };
      if (!/\p{L}/u.test(phrase))
        return { status: 400, body: { message: 'Word or phrase must contain a letter or digit' } };
      const word = { id: 9, phrase, until: null, createdAt: since };
      current = { ...current, words: [word] };
      return { status: 201, body: word };
    }
    return undefined;
  });
}

const renderSection = () => renderPage(<PrivacyAndSafety />, { signedInAs: ADA });

describe('Settings, Privacy and safety', () => {
  it('when the lists fail to load, then Retry loads them (issue 41)', async () => {
    let failing = true;
    mockApi(({ method, pathname }) =>
      method === 'GET' && pathname === '/api/safety'
        ? failing
          ? { status: 503, body: { message: 'Unavailable' } }
          : { status: 200, body: { blocked: [], muted: [], words: [] } }
        : undefined,
    );
    renderSection();
    expect(await screen.findByRole('alert')).toHaveTextContent('Your lists could not be loaded.');
    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('when a member unblocks someone from the list, then the unblock is sent, the list reloads and focus goes to its heading', async () => {
    const fetchMock = apiWith({
      blocked: [{ id: BEN.id, name: BEN.name, email: BEN.email, avatarUrl: null, since }],
      muted: [],
      words: [],
    });
    renderSection();
    const blocked = await screen.findByRole('region', { name: 'Blocked members' });
    await userEvent.click(within(blocked).getByRole('button', { name: `Unblock ${BEN.name}` }));
    expect(await within(blocked).findByText('You have not blocked anyone.')).toBeVisible();
    expect(callsTo(fetchMock, `/api/users/${BEN.id}/block`, 'DELETE')).toHaveLength(1);
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Blocked members' })).toHaveFocus(),
    );
  });

  it('when a member mutes a word for a day, then it is sent with its duration and listed; a refusal shows under the field', async () => {
    const fetchMock = apiWith({ blocked: [], muted: [], words: [] });
    renderSection();
    const field = await screen.findByLabelText('Word or phrase to mute');
    await userEvent.type(field, '!!!');
    await userEvent.click(screen.getByRole('button', { name: 'Mute word' }));
    expect(await screen.findByText('Word or phrase must contain a letter or digit')).toBeVisible();
    await userEvent.clear(field);
    await userEvent.type(field, 'exam');
    await userEvent.selectOptions(screen.getByLabelText('For how long'), '1 day');
    await userEvent.click(screen.getByRole('button', { name: 'Mute word' }));
    const words = await screen.findByRole('region', { name: 'Muted words and phrases' });
    expect(await within(words).findByText('exam')).toBeVisible();
    const sent = callsTo(fetchMock, '/api/safety/muted-words', 'POST').map((c) =>
      JSON.parse(String(c.init.body)),
    );
    expect(sent.at(-1)).toEqual({ phrase: 'exam', duration: '1d' });
  });
});
