import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Comment, Post } from '@campus/contracts';
import { clearStoredAuth } from '@campus/kit/api';
import { onAppEvent } from '@campus/kit/events';
import {
  CommentMenu,
  DELETE_COMMENT_CONFIRMATION,
  DELETE_POST_CONFIRMATION,
  EditedLabel,
  PostMenu,
} from '@campus/kit/own-words';
import { dismissToast } from '@campus/kit/toast';
import { ADA, BEN, callsTo, makePost, mockApi, renderPage } from '@campus/kit/testing';

/** Ada's own post, as she sees it. */
const ownPost = (overrides: Partial<Post> = {}) =>
  makePost({ id: 10, author: ADA, canDelete: true, content: 'First draft', ...overrides });

const menuButton = () => screen.findByRole('button', { name: 'More actions for this post' });
const sentBody = (call: { init: RequestInit }) => JSON.parse(String(call.init.body)) as unknown;
const itemNames = () => screen.getAllByRole('menuitem').map((item) => item.textContent);

beforeEach(() => act(() => dismissToast()));
afterEach(() => clearStoredAuth());

describe('PostMenu', () => {
  it('offers its author Edit, Delete and Copy link, and moves through them with the keyboard', async () => {
    mockApi(() => ({ status: 500 }));
    const user = userEvent.setup();
    renderPage(<PostMenu post={ownPost()} />, { signedInAs: ADA });
    (await menuButton()).focus();
    await user.keyboard('{ArrowDown}');
    expect(itemNames()).toEqual(['Edit', 'Delete', 'Copy link']);
    expect(screen.getByRole('menuitem', { name: 'Edit' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Delete' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('menuitem', { name: 'Copy link' })).toHaveFocus();
    await user.keyboard('{ArrowDown}'); // wraps
    expect(screen.getByRole('menuitem', { name: 'Edit' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(await menuButton()).toHaveFocus();
  });

  it("offers anyone else Report post and Copy link, and nothing of the author's", async () => {
    mockApi(() => ({ status: 500 }));
    const user = userEvent.setup();
    renderPage(<PostMenu post={makePost({ id: 11, author: ADA })} />, { signedInAs: BEN });
    await user.click(await menuButton());
    expect(itemNames()).toEqual(['Report post', 'Copy link']);
  });

  it('offers no Edit on a plain repost (it has no text of its own)', async () => {
    mockApi(() => ({ status: 500 }));
    const user = userEvent.setup();
    renderPage(<PostMenu post={ownPost({ originalPostId: 3, content: '' })} />, {
      signedInAs: ADA,
    });
    await user.click(await menuButton());
    expect(itemNames()).toEqual(['Delete', 'Copy link']);
  });

  it('when its author saves an edit, then the post is updated, lists are told, and focus returns to the menu', async () => {
    const fetchMock = mockApi(({ method, pathname, body }) =>
      method === 'PUT' && pathname === '/api/posts/10'
        ? {
            status: 200,
            body: ownPost({
              content: (body as { content: string }).content,
              editedAt: new Date().toISOString(),
            }),
          }
        : { status: 500 },
    );
    const edited: number[] = [];
    const stop = onAppEvent('postEdited', ({ postId }) => edited.push(postId));
    const onEdited = jest.fn();
    const user = userEvent.setup();
    renderPage(<PostMenu post={ownPost()} onEdited={onEdited} />, { signedInAs: ADA });
    await user.click(await menuButton());
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit post' });
    const field = within(dialog).getByLabelText('Post text');
    expect(field).toHaveValue('First draft');
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled(); // unchanged
    await user.clear(field);
    await user.type(field, '  Final text ');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, '/api/posts/10', 'PUT').map(sentBody)).toEqual([
      { content: 'Final text' },
    ]);
    expect(edited).toEqual([10]);
    expect(onEdited).toHaveBeenCalledWith(expect.objectContaining({ content: 'Final text' }));
    await waitFor(async () => expect(await menuButton()).toHaveFocus());
    stop();
  });

  it('when its author mentions someone new in an edit, then the earlier and the new mentions are sent (issue 40)', async () => {
    const fetchMock = mockApi(({ method, pathname }) =>
      pathname === '/api/users/mention-suggestions'
        ? {
            status: 200,
            body: [
              {
                id: 7,
                name: 'Cleo Park',
                email: 'cleo@campus.edu',
                avatarUrl: null,
                isFollowing: true,
              },
            ],
          }
        : method === 'PUT' && pathname === '/api/posts/10'
          ? { status: 200, body: ownPost() }
          : { status: 500 },
    );
    const user = userEvent.setup();
    const post = ownPost({
      content: 'Lab with @Ben Larsen',
      mentions: [{ id: 2, start: 9, end: 20 }],
    });
    renderPage(<PostMenu post={post} />, { signedInAs: ADA });
    // an edit that picks nobody leaves the mentions to the API (it keeps those still in the text)
    await user.click(await menuButton());
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    let dialog = await screen.findByRole('dialog', { name: 'Edit post' });
    await user.type(within(dialog).getByLabelText('Post text'), ' today');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // one that picks someone sends who the text mentions: Ben still, and Cleo (the dialog
    // opens again on the text as the author left it)
    await user.click(await menuButton());
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    dialog = await screen.findByRole('dialog', { name: 'Edit post' });
    await user.type(within(dialog).getByLabelText('Post text'), ' and @cl');
    await within(dialog).findByRole('option', { name: /Cleo Park/ });
    await user.keyboard('{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, '/api/posts/10', 'PUT').map(sentBody)).toEqual([
      { content: 'Lab with @Ben Larsen today' },
      { content: 'Lab with @Ben Larsen today and @Cleo Park', mentions: [2, 7] },
    ]);
  });

  it('when a quote is edited past 280 characters, then the paste is kept, counted and Save waits (issue 41)', async () => {
    const { originalPost: _none, ...original } = makePost({ id: 5, author: BEN });
    const quote = ownPost({ originalPostId: 5, originalPost: original, repostComment: 'Nice' });
    const fetchMock = mockApi(() => ({ status: 500 }));
    const user = userEvent.setup();
    renderPage(<PostMenu post={quote} />, { signedInAs: ADA });
    await user.click(await menuButton());
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    const field = within(dialog).getByRole('textbox');
    await user.clear(field);
    await user.paste('q'.repeat(290));
    expect(field).toHaveValue('q'.repeat(290));
    expect(field).toHaveAccessibleDescription('10 characters over the limit 290/280');
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await user.type(field, '{Backspace}'.repeat(10));
    expect(save).toBeEnabled();
    expect(callsTo(fetchMock, '/api/posts/10', 'PUT')).toHaveLength(0);
  });

  it("when an edit is refused, then the API's reason is shown and the dialog stays open", async () => {
    mockApi(({ method }) =>
      method === 'PUT'
        ? { status: 400, body: { message: 'A post can be edited at most 50 times' } }
        : { status: 500 },
    );
    const user = userEvent.setup();
    renderPage(<PostMenu post={ownPost()} />, { signedInAs: ADA });
    await user.click(await menuButton());
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit post' });
    await user.type(within(dialog).getByLabelText('Post text'), '!');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A post can be edited at most 50 times')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit post' })).toBeInTheDocument();
  });

  it('when its author confirms Delete, then the post is deleted and postDeleted fires', async () => {
    const fetchMock = mockApi(({ method, pathname }) =>
      method === 'DELETE' && pathname === '/api/posts/10'
        ? { status: 200, body: { id: 10, deleted: true } }
        : { status: 500 },
    );
    const deleted: number[] = [];
    const stop = onAppEvent('postDeleted', ({ postId }) => deleted.push(postId));
    const onDeleted = jest.fn();
    const user = userEvent.setup();
    renderPage(<PostMenu post={ownPost()} onDeleted={onDeleted} />, { signedInAs: ADA });
    await user.click(await menuButton());
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete post' });
    expect(dialog).toHaveTextContent(DELETE_POST_CONFIRMATION);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Post deleted successfully!')).toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/posts/10', 'DELETE')).toHaveLength(1);
    expect(deleted).toEqual([10]);
    expect(onDeleted).toHaveBeenCalled();
    stop();
  });

  it("when Copy link is chosen, then the post's address is on the clipboard", async () => {
    mockApi(() => ({ status: 500 }));
    const user = userEvent.setup();
    renderPage(<PostMenu post={makePost({ id: 12 })} />, { signedInAs: ADA });
    await user.click(await menuButton());
    await user.click(screen.getByRole('menuitem', { name: 'Copy link' }));
    expect(await screen.findByText('Link copied')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/post/12`);
  });
});

describe('EditedLabel', () => {
  it('shows nothing for text never edited, and the versions, newest first, for edited text', async () => {
    mockApi(({ pathname }) =>
      pathname === '/api/comments/5/versions'
        ? {
            status: 200,
            body: {
              versions: [
                { content: 'the fixed text', writtenAt: '2026-11-02T10:05:00.000Z' },
                { content: 'teh text', writtenAt: '2026-11-02T10:00:00.000Z' },
              ],
            },
          }
        : { status: 500 },
    );
    const user = userEvent.setup();
    renderPage(
      <>
        <EditedLabel kind="comment" id={4} editedAt={null} />
        <EditedLabel kind="comment" id={5} editedAt="2026-11-02T10:05:00.000Z" />
      </>,
      { signedInAs: ADA },
    );
    // Only the edited one is marked.
    expect(await screen.findAllByRole('button', { name: /edited/i })).toHaveLength(1);
    await user.click(await screen.findByRole('button', { name: /^Edited .*earlier versions/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit history' });
    const versions = await within(dialog).findAllByRole('listitem');
    expect(versions.map((v) => v.querySelector('p')?.textContent)).toEqual([
      'the fixed text',
      'teh text',
    ]);
    expect(versions[0]).toHaveTextContent(/^Current/);
  });
});

describe('CommentMenu', () => {
  const comment: Comment = {
    id: 7,
    content: 'teh typo',
    createdAt: new Date().toISOString(),
    author: ADA,
    likesCount: 0,
    isLiked: false,
  };
  const commentButton = () =>
    screen.findByRole('button', { name: 'More actions for the comment by Ada Okafor' });

  it('lets its author edit it', async () => {
    const fetchMock = mockApi(({ method, pathname, body }) =>
      method === 'PUT' && pathname === '/api/comments/7'
        ? { status: 200, body: { ...comment, ...(body as object) } }
        : { status: 500 },
    );
    const onChanged = jest.fn();
    const user = userEvent.setup();
    renderPage(<CommentMenu postId={3} comment={comment} onChanged={onChanged} />, {
      signedInAs: ADA,
    });
    await user.click(await commentButton());
    expect(itemNames()).toEqual(['Edit', 'Delete', 'Copy link']);
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit comment' });
    const field = within(dialog).getByLabelText('Comment');
    await user.clear(field);
    await user.type(field, 'the typo');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(callsTo(fetchMock, '/api/comments/7', 'PUT').map(sentBody)).toEqual([
      { content: 'the typo' },
    ]);
  });

  it('lets its author delete it after confirming', async () => {
    const fetchMock = mockApi(({ method, pathname }) =>
      method === 'DELETE' && pathname === '/api/comments/7'
        ? {
            status: 200,
            body: { id: 7, postId: 3, deleted: true, placeholder: false, commentsCount: 0 },
          }
        : { status: 500 },
    );
    const onChanged = jest.fn();
    const user = userEvent.setup();
    renderPage(<CommentMenu postId={3} comment={comment} onChanged={onChanged} />, {
      signedInAs: ADA,
    });
    await user.click(await commentButton());
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete comment' });
    expect(dialog).toHaveTextContent(DELETE_COMMENT_CONFIRMATION);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(callsTo(fetchMock, '/api/comments/7', 'DELETE')).toHaveLength(1);
  });

  it('offers anyone else Report and Copy link, and copies the link to the comment', async () => {
    mockApi(() => ({ status: 500 }));
    const user = userEvent.setup();
    renderPage(<CommentMenu postId={3} comment={comment} onChanged={jest.fn()} />, {
      signedInAs: BEN,
    });
    await user.click(await commentButton());
    expect(itemNames()).toEqual(['Report', 'Copy link']);
    await user.click(screen.getByRole('menuitem', { name: 'Copy link' }));
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/post/3#comment-7`);
  });
});
