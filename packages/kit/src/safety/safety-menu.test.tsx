import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { onAppEvent } from '@campus/kit/events';
import { PostCard } from '@campus/kit/post-card';
import { ReportMenu } from '@campus/kit/report';
import { dismissToast } from '@campus/kit/toast';
import { ADA, BEN, callsTo, makePost, mockApi, renderPage } from '@campus/kit/testing';

beforeEach(() => act(() => dismissToast()));
afterEach(() => window.localStorage.clear());

function renderMenu() {
  return renderPage(
    <PostCard
      post={makePost({ id: 70, author: BEN, content: 'Library is open late this week' })}
    />,
    { signedInAs: ADA },
  );
}

function renderProfileMenu() {
  return renderPage(
    <ReportMenu
      targetType="user"
      targetId={BEN.id}
      authorId={BEN.id}
      authorName={BEN.name}
      label="Report user"
      menuLabel={`More actions for ${BEN.name}`}
    />,
    { signedInAs: ADA },
  );
}

const openMenu = async () =>
  userEvent.click(await screen.findByRole('button', { name: 'More actions for this post' }));

describe('Mute and Block in the ⋯ menu', () => {
  it('when a member blocks the author, then the block is posted after the confirmation, a toast says so and the feeds are told', async () => {
    const fetchMock = mockApi(({ method, path }) =>
      method === 'POST' && path === `/api/users/${BEN.id}/block`
        ? { status: 200, body: { userId: BEN.id, blocked: true } }
        : undefined,
    );
    const hidden: number[] = [];
    const stop = onAppEvent('memberHidden', ({ userId }) => hidden.push(userId));
    renderMenu();
    await openMenu();
    await userEvent.click(screen.getByRole('menuitem', { name: `Block ${BEN.name}` }));
    const dialog = await screen.findByRole('dialog', { name: `Block ${BEN.name}?` });
    expect(callsTo(fetchMock, `/api/users/${BEN.id}/block`, 'POST')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Block' }));
    expect(await screen.findByText('Blocked')).toBeInTheDocument();
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(callsTo(fetchMock, `/api/users/${BEN.id}/block`, 'POST')).toHaveLength(1);
    expect(hidden).toEqual([BEN.id]);
    stop();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'More actions for this post' })).toHaveFocus(),
    );
  });

  it('when a member mutes the author for 7 days, then the mute is posted with that duration', async () => {
    const fetchMock = mockApi(({ method, path }) =>
      method === 'POST' && path === `/api/users/${BEN.id}/mute`
        ? { status: 200, body: { userId: BEN.id, muted: true, until: new Date().toISOString() } }
        : undefined,
    );
    renderMenu();
    await openMenu();
    await userEvent.click(screen.getByRole('menuitem', { name: `Mute ${BEN.name}` }));
    await screen.findByRole('dialog', { name: `Mute ${BEN.name}?` });
    await userEvent.click(screen.getByRole('radio', { name: '7 days' }));
    await userEvent.click(screen.getByRole('button', { name: 'Mute' }));
    expect(await screen.findByText('Muted')).toBeInTheDocument();
    const [call] = callsTo(fetchMock, `/api/users/${BEN.id}/mute`, 'POST');
    expect(JSON.parse(String(call?.init.body))).toEqual({ duration: '7d' });
  });

  it("when a member opens the menu of someone else's post, then it offers Mute, Block, Report post and Copy link in that order", async () => {
    mockApi();
    renderMenu();
    await openMenu();
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      `Mute ${BEN.name}`,
      `Block ${BEN.name}`,
      'Report post',
      'Copy link',
    ]);
  });

  it('when the menu is used from the keyboard, then the arrows move between Mute, Block, Report post and Copy link', async () => {
    mockApi();
    renderMenu();
    const button = await screen.findByRole('button', { name: 'More actions for this post' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('menuitem', { name: `Mute ${BEN.name}` })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: `Block ${BEN.name}` })).toHaveFocus();
    await userEvent.keyboard('{End}');
    expect(screen.getByRole('menuitem', { name: 'Copy link' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: `Mute ${BEN.name}` })).toHaveFocus();
  });

  it("when a member opens the menu of someone's profile, then it offers Mute, Block and Report user, the first one focused", async () => {
    mockApi();
    renderProfileMenu();
    const button = await screen.findByRole('button', { name: `More actions for ${BEN.name}` });
    button.focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      `Mute ${BEN.name}`,
      `Block ${BEN.name}`,
      'Report user',
    ]);
    expect(screen.getByRole('menuitem', { name: `Mute ${BEN.name}` })).toHaveFocus();
    await userEvent.keyboard('{End}');
    expect(screen.getByRole('menuitem', { name: 'Report user' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: `Mute ${BEN.name}` })).toHaveFocus();
  });
});

describe('a post with a muted word', () => {
  it('when the API marks a post with a muted word, then it shows as a collapsed row that opens to the post', async () => {
    mockApi();
    renderPage(
      <PostCard post={makePost({ author: BEN, content: 'Exam week again', mutedWord: 'exam' })} />,
      { signedInAs: ADA },
    );
    const row = await screen.findByRole('group', { name: `Hidden post by ${BEN.name}` });
    expect(row).toHaveTextContent('Hidden: contains a muted word');
    expect(screen.queryByText('Exam week again')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(await screen.findByText('Exam week again')).toBeInTheDocument();
    expect(screen.queryByText('Hidden: contains a muted word')).not.toBeInTheDocument();
  });

  it('when a post has no muted word, then it shows as it is', async () => {
    mockApi();
    renderPage(<PostCard post={makePost({ author: BEN, content: 'Plain post' })} />, {
      signedInAs: ADA,
    });
    expect(await screen.findByText('Plain post')).toBeInTheDocument();
    expect(screen.queryByText('Hidden: contains a muted word')).not.toBeInTheDocument();
  });
});
