import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { Post } from '@campus/contracts';
import { configureApi, storeAuth, clearStoredAuth } from '@campus/kit/api';
import { DataProvider } from '@campus/kit/data';
import { onAppEvent } from '@campus/kit/events';
import { SessionProvider } from '@campus/kit/session';
import { KitThemeProvider } from '@campus/kit/theme';
import { Toaster, dismissToast } from '@campus/kit/toast';
import { PostCard, type PostCardProps } from '@campus/kit/post-card';
import {
  ADA,
  BEN,
  callsTo,
  makePost as makeTestPost,
  mockApi,
  type ApiReply,
} from '@campus/kit/testing';

const ada = ADA;
const ben = BEN;

/** Ada's post with some engagement, as Ben sees it. */
function makePost(overrides: Partial<Post> = {}): Post {
  return makeTestPost({
    id: 10,
    content: 'Library open late this week',
    likesCount: 3,
    repostsCount: 1,
    commentsCount: 2,
    author: ada,
    ...overrides,
  });
}

function Location() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

/** Signed in as Ben; the session check answers from the mocked fetch. */
function renderCard(ui: ReactElement) {
  return render(
    <KitThemeProvider>
      <DataProvider>
        <SessionProvider>
          <MemoryRouter initialEntries={['/']}>
            <Routes>
              <Route path="*" element={ui} />
            </Routes>
            <Location />
          </MemoryRouter>
          <Toaster />
        </SessionProvider>
      </DataProvider>
    </KitThemeProvider>,
  );
}

/** The fake API: Ben's session check succeeds, every other request goes to `handler`. */
function mockFetch(handler: (url: string, init: RequestInit) => ApiReply | Promise<ApiReply>) {
  return mockApi(({ url, init }) => handler(url.href, init));
}

async function renderSignedIn(props: PostCardProps) {
  renderCard(<PostCard {...props} />);
  // The repost button becomes available once the session is confirmed.
  await waitFor(() =>
    expect(screen.getByRole('button', { name: /^Repost/ })).not.toHaveAttribute(
      'title',
      'Sign in to repost',
    ),
  );
}

beforeEach(() => {
  configureApi({ baseUrl: 'http://api.test' });
  storeAuth({ user: ben });
  act(() => dismissToast());
});
afterEach(() => clearStoredAuth());

describe('PostCard', () => {
  it('shows the author linking to the profile, the content, the counts and no JD badge', async () => {
    mockFetch(() => ({ status: 500 }));
    await renderSignedIn({ post: makePost() });
    const card = screen.getByRole('article', { name: 'Post by Ada Okafor' });
    expect(within(card).getByRole('link', { name: 'Ada Okafor' })).toHaveAttribute(
      'href',
      '/profile/1',
    );
    expect(card).toHaveTextContent('@ada.okafor');
    expect(card).toHaveTextContent('Library open late this week');
    expect(within(card).getByRole('button', { name: 'Like (3 likes)' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Comments (2 comments)' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Repost (1 repost)' })).toBeEnabled();
    expect(within(card).queryByText('JD')).not.toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });

  it('shows the JD badge on a JD post', async () => {
    mockFetch(() => ({ status: 500 }));
    await renderSignedIn({ post: makePost({ isJdTagged: true }) });
    expect(screen.getByText('JD')).toBeInTheDocument();
  });

  it("offers 'Show more' only when the text overflows its 5 lines", async () => {
    mockFetch(() => ({ status: 500 }));
    const scrollHeight = jest
      .spyOn(HTMLElement.prototype, 'scrollHeight', 'get')
      .mockImplementation(function (this: HTMLElement) {
        return this.textContent?.startsWith('Long') ? 400 : 0;
      });
    const clientHeight = jest
      .spyOn(HTMLElement.prototype, 'clientHeight', 'get')
      .mockReturnValue(100);
    try {
      await renderSignedIn({ post: makePost({ content: 'Long text '.repeat(80) }) });
      const more = screen.getByRole('button', { name: 'Show more' });
      await userEvent.click(more);
      expect(screen.getByRole('button', { name: 'Show less' })).toHaveAttribute(
        'aria-expanded',
        'true',
      );
      expect(screen.getByTestId('location')).toHaveTextContent('/'); // not opened
    } finally {
      scrollHeight.mockRestore();
      clientHeight.mockRestore();
    }
  });

  it('opens /post/{id} when the card is clicked, after telling onOpen', async () => {
    mockFetch(() => ({ status: 500 }));
    const onOpen = jest.fn();
    const post = makePost();
    await renderSignedIn({ post, onOpen });
    await userEvent.click(screen.getByText('Library open late this week'));
    expect(onOpen).toHaveBeenCalledWith(post);
    expect(screen.getByTestId('location')).toHaveTextContent('/post/10');
  });

  it('likes at once and settles on the server answer', async () => {
    let answer: (value: { liked: boolean; likesCount: number }) => void = () => undefined;
    const likeRequest = jest.fn(
      () => new Promise<{ liked: boolean; likesCount: number }>((resolve) => (answer = resolve)),
    );
    mockFetch(() => ({ status: 500 }));
    const onLikeChange = jest.fn();
    await renderSignedIn({ post: makePost(), likeRequest, onLikeChange });
    await userEvent.click(screen.getByRole('button', { name: 'Like (3 likes)' }));
    // A liked post reads 'Liked' (issue 41).
    const liked = screen.getByRole('button', { name: 'Liked (4 likes)' });
    expect(liked).toHaveAttribute('aria-pressed', 'true');
    expect(likeRequest).toHaveBeenCalledWith(10);
    await act(async () => answer({ liked: true, likesCount: 7 }));
    expect(screen.getByRole('button', { name: 'Liked (7 likes)' })).toBeInTheDocument();
    expect(onLikeChange).toHaveBeenCalledWith(expect.objectContaining({ id: 10 }), {
      liked: true,
      likesCount: 7,
    });
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('rolls an unlike back and shows the destructive toast when the server fails', async () => {
    const fetchMock = mockFetch(() => ({ status: 500, body: { message: 'boom' } }));
    await renderSignedIn({ post: makePost({ isLiked: true, likesCount: 1 }) });
    await userEvent.click(screen.getByRole('button', { name: 'Liked (1 like)' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error');
    expect(alert).toHaveTextContent('Failed to update like. Please try again.');
    const button = screen.getByRole('button', { name: 'Liked (1 like)' });
    expect(button).toHaveAttribute('aria-pressed', 'true');
    expect(fetchMock).toHaveBeenCalledWith(
      'http://api.test/api/posts/10/like',
      expect.objectContaining({ method: 'POST' }),
    );
  });

  it("rolls a like back and shows the API's limit message when the member likes too fast (429)", async () => {
    mockFetch(() => ({
      status: 429,
      body: {
        message:
          'Too many likes: you can make at most 60 likes per minute. Please try again in 42 seconds.',
      },
    }));
    await renderSignedIn({ post: makePost({ isLiked: false, likesCount: 1 }) });
    await userEvent.click(screen.getByRole('button', { name: 'Like (1 like)' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'Too many likes: you can make at most 60 likes per minute. Please try again in 42 seconds.',
    );
    expect(screen.getByRole('button', { name: 'Like (1 like)' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });

  it('reposts with a trimmed comment and a live n/280 counter, then counts the repost', async () => {
    const fetchMock = mockFetch(() => ({ status: 201, body: makePost({ id: 99 }) }));
    const onReposted = jest.fn();
    await renderSignedIn({ post: makePost(), onReposted });
    await userEvent.click(screen.getByRole('button', { name: 'Repost (1 repost)' }));
    const dialog = screen.getByRole('dialog', { name: 'Repost' });
    const field = within(dialog).getByRole('textbox', { name: 'Add a comment (optional)' });
    expect(field).toHaveFocus();
    expect(dialog).toHaveTextContent('0/280');
    await userEvent.type(field, '  So useful  ');
    expect(dialog).toHaveTextContent('13/280');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Repost' }));
    expect(await screen.findByText('Post reposted successfully!')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      'http://api.test/api/posts/10/repost',
      expect.objectContaining({ method: 'POST', body: JSON.stringify({ comment: 'So useful' }) }),
    );
    expect(onReposted).toHaveBeenCalledWith(expect.objectContaining({ id: 99 }), expect.anything());
    const reposted = screen.getByRole('button', { name: 'Repost (2 reposts)' });
    expect(reposted).toHaveAttribute('aria-pressed', 'true');
    expect(reposted).toHaveAttribute('title', 'Undo repost');
  });

  it('when a 300-character quote is pasted, then it is kept whole, warned about and Repost waits (issue 41)', async () => {
    const fetchMock = mockFetch(() => ({ status: 201, body: makePost({ id: 99 }) }));
    await renderSignedIn({ post: makePost() });
    await userEvent.click(screen.getByRole('button', { name: 'Repost (1 repost)' }));
    const dialog = screen.getByRole('dialog', { name: 'Repost' });
    const field = within(dialog).getByRole('textbox', { name: 'Add a comment (optional)' });
    await userEvent.paste('q'.repeat(300));
    expect(field).toHaveValue('q'.repeat(300));
    expect(dialog).toHaveTextContent('300/280');
    expect(within(dialog).getByText('20 characters over the limit')).toBeVisible();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    const repost = within(dialog).getByRole('button', { name: 'Repost' });
    expect(repost).toBeDisabled();
    fireEvent.submit(repost.closest('form')!);
    const reposts = () => fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/repost'));
    expect(reposts()).toHaveLength(0);

    await userEvent.clear(field);
    await userEvent.paste('q'.repeat(280));
    expect(dialog).toHaveTextContent('280/280');
    expect(within(dialog).queryByText(/over the limit/)).not.toBeInTheDocument();
    await userEvent.click(repost);
    expect(await screen.findByText('Post reposted successfully!')).toBeInTheDocument();
    expect(reposts()).toHaveLength(1);
  });

  it('sends no comment when it is blank and shows the failure toast', async () => {
    const fetchMock = mockFetch(() => ({ status: 409, body: { message: 'already' } }));
    await renderSignedIn({ post: makePost() });
    await userEvent.click(screen.getByRole('button', { name: 'Repost (1 repost)' }));
    const dialog = screen.getByRole('dialog', { name: 'Repost' });
    await userEvent.type(within(dialog).getByRole('textbox'), '   ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Repost' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to repost. Please try again.',
    );
    expect(fetchMock).toHaveBeenCalledWith(
      'http://api.test/api/posts/10/repost',
      expect.objectContaining({ body: '{}' }),
    );
    expect(screen.getByRole('dialog', { name: 'Repost' })).toBeInTheDocument();
  });

  it('closes the repost dialog with Escape and gives focus back to the button', async () => {
    mockFetch(() => ({ status: 500 }));
    await renderSignedIn({ post: makePost() });
    const button = screen.getByRole('button', { name: 'Repost (1 repost)' });
    await userEvent.click(button);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it('shows a repost: who reposted, the quote, the original author and content, a link to it', async () => {
    mockFetch(() => ({ status: 500 }));
    const original = makePost({ id: 5, content: 'Career fair Tuesday', isJdTagged: true });
    const { originalPost: _unused, ...originalFields } = original;
    void _unused;
    await renderSignedIn({
      post: makePost({
        id: 11,
        author: ben,
        content: '',
        originalPostId: 5,
        repostComment: 'Worth going',
        originalPost: originalFields,
      }),
    });
    const card = screen.getByRole('article', { name: 'Ben Larsen reposted Ada Okafor' });
    expect(card).toHaveTextContent('Ben Larsen reposted');
    expect(within(card).getByLabelText("Ben Larsen's comment")).toHaveTextContent('Worth going');
    expect(within(card).getByRole('link', { name: 'Ada Okafor' })).toHaveAttribute(
      'href',
      '/profile/1',
    );
    expect(card).toHaveTextContent('Career fair Tuesday');
    expect(within(card).getByText('JD')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'View original post' })).toHaveAttribute(
      'href',
      '/post/5',
    );
    expect(within(card).getByRole('button', { name: /^Repost/ })).toBeDisabled();
  });

  it('says plainly when the original of a repost was deleted', async () => {
    mockFetch(() => ({ status: 500 }));
    await renderSignedIn({
      post: makePost({ id: 12, author: ben, content: '', originalPostId: 5, originalPost: null }),
    });
    expect(screen.getByText('The original post has been deleted.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'View original post' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Repost/ })).toBeDisabled();
  });

  it('offers no repost dialog when signed out', async () => {
    clearStoredAuth();
    mockFetch(() => ({ status: 500 }));
    renderCard(<PostCard post={makePost()} />);
    const button = screen.getByRole('button', { name: /^Repost/ });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('title', 'Sign in to repost');
  });

  describe('reposts credit the original', () => {
    /** Ben's plain repost of Ada's post 5 (liked 3 times, 2 comments, reposted by Ben). */
    function plainRepost(extra: Partial<Post> = {}) {
      const { originalPost: _unused, ...original } = makePost({
        id: 5,
        content: 'Career fair Tuesday',
        likesCount: 3,
        commentsCount: 2,
        repostsCount: 1,
        isReposted: true,
      });
      void _unused;
      return makePost({
        id: 12,
        author: ben,
        content: '',
        likesCount: 0,
        commentsCount: 0,
        repostsCount: 0,
        originalPostId: 5,
        repostComment: null,
        originalPost: original,
        ...extra,
      });
    }

    it('likes, counts and opens the original of a plain repost', async () => {
      const likeRequest = jest.fn(async () => ({ liked: true, likesCount: 4 }));
      mockFetch(() => ({ status: 500 }));
      await renderSignedIn({ post: plainRepost(), likeRequest });
      const card = screen.getByRole('article', { name: 'Ben Larsen reposted Ada Okafor' });
      await userEvent.click(within(card).getByRole('button', { name: 'Like (3 likes)' }));
      expect(likeRequest).toHaveBeenCalledWith(5);
      expect(await within(card).findByRole('button', { name: 'Liked (4 likes)' })).toBeVisible();
      expect(within(card).getByRole('button', { name: 'Repost (1 repost)' })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      await userEvent.click(within(card).getByRole('button', { name: 'Comments (2 comments)' }));
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/post\/5$/);
    });

    it("withdraws the viewer's repost from the same button", async () => {
      const fetchMock = mockFetch(() => ({
        status: 200,
        body: { postId: 5, repostPostId: 12, reposted: false, repostsCount: 0 },
      }));
      const deleted = jest.fn();
      const stop = onAppEvent('postDeleted', deleted);
      const onRepostUndone = jest.fn();
      await renderSignedIn({ post: plainRepost(), onRepostUndone });
      await userEvent.click(screen.getByRole('button', { name: 'Repost (1 repost)' }));
      expect(await screen.findByText('Your repost was removed.')).toBeInTheDocument();
      expect(fetchMock).toHaveBeenCalledWith(
        'http://api.test/api/posts/5/repost',
        expect.objectContaining({ method: 'DELETE' }),
      );
      const button = screen.getByRole('button', { name: 'Repost (0 reposts)' });
      expect(button).toHaveAttribute('aria-pressed', 'false');
      expect(onRepostUndone).toHaveBeenCalledWith(expect.objectContaining({ id: 5 }));
      expect(deleted).toHaveBeenCalledWith({ postId: 12 }); // lists drop the withdrawn repost
      stop();
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });

    it('keeps the repost and says why when the API refuses to withdraw it', async () => {
      mockFetch(() => ({
        status: 404,
        body: { message: 'You have no plain repost of this post' },
      }));
      await renderSignedIn({ post: plainRepost() });
      await userEvent.click(screen.getByRole('button', { name: 'Repost (1 repost)' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'You have no plain repost of this post',
      );
      expect(screen.getByRole('button', { name: 'Repost (1 repost)' })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
    });

    it('shows a comment shared to the timeline as a comment on the post, acting on the post', async () => {
      const likeRequest = jest.fn(async () => ({ liked: true, likesCount: 4 }));
      mockFetch(() => ({ status: 500 }));
      await renderSignedIn({
        post: plainRepost({ repostComment: 'See you there', sharedCommentId: 77 }),
        likeRequest,
      });
      const card = screen.getByRole('article', {
        name: "Ben Larsen commented on Ada Okafor's post",
      });
      expect(card).toHaveTextContent('Ben Larsen commented');
      expect(card).not.toHaveTextContent('reposted');
      expect(within(card).getByLabelText("Ben Larsen's comment")).toHaveTextContent(
        'See you there',
      );
      await userEvent.click(within(card).getByRole('button', { name: 'Like (3 likes)' }));
      expect(likeRequest).toHaveBeenCalledWith(5);
    });

    it('keeps a quote (a repost with its own comment) acting on itself', async () => {
      const likeRequest = jest.fn(async () => ({ liked: true, likesCount: 1 }));
      mockFetch(() => ({ status: 500 }));
      await renderSignedIn({ post: plainRepost({ repostComment: 'Worth going' }), likeRequest });
      await userEvent.click(screen.getByRole('button', { name: 'Like (0 likes)' }));
      expect(likeRequest).toHaveBeenCalledWith(12);
      expect(screen.getByRole('button', { name: /^Repost/ })).toBeDisabled();
    });
  });

  describe('bookmarks (issue 40)', () => {
    it('bookmarks at once, settles on the server answer and tells onBookmarkChange', async () => {
      let answer: (reply: ApiReply) => void = () => undefined;
      const fetchMock = mockFetch((url, init) =>
        url.endsWith('/api/posts/10/bookmark') && init.method === 'POST'
          ? new Promise<ApiReply>((resolve) => (answer = resolve))
          : { status: 500 },
      );
      const onBookmarkChange = jest.fn();
      await renderSignedIn({ post: makePost({ isBookmarked: false }), onBookmarkChange });
      const button = screen.getByRole('button', { name: 'Bookmark' });
      expect(button).toHaveAttribute('aria-pressed', 'false');
      await userEvent.click(button);
      // pressed before the server answers; no count anywhere (bookmarks are private)
      const pressed = screen.getByRole('button', { name: 'Remove bookmark' });
      expect(pressed).toHaveAttribute('aria-pressed', 'true');
      expect(pressed).toHaveTextContent('');
      expect(callsTo(fetchMock, '/api/posts/10/bookmark', 'POST')).toHaveLength(1);
      await act(async () => answer({ status: 200, body: { postId: 10, bookmarked: true } }));
      expect(onBookmarkChange).toHaveBeenCalledWith(expect.objectContaining({ id: 10 }), {
        postId: 10,
        bookmarked: true,
      });
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/); // the card did not open
    });

    it('removes a bookmark, and rolls back with the destructive toast when the server fails', async () => {
      const fetchMock = mockFetch((url, init) =>
        url.endsWith('/api/posts/10/bookmark') && init.method === 'DELETE'
          ? { status: 500, body: { message: 'boom' } }
          : { status: 500 },
      );
      await renderSignedIn({ post: makePost({ isBookmarked: true }) });
      await userEvent.click(screen.getByRole('button', { name: 'Remove bookmark' }));
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Failed to update bookmark. Please try again.');
      expect(screen.getByRole('button', { name: 'Remove bookmark' })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      expect(callsTo(fetchMock, '/api/posts/10/bookmark', 'DELETE')).toHaveLength(1);
    });

    it('bookmarks the original of a plain repost, and offers no bookmark when signed out', async () => {
      const fetchMock = mockFetch((url) =>
        url.endsWith('/api/posts/5/bookmark')
          ? { status: 200, body: { postId: 5, bookmarked: true } }
          : { status: 500 },
      );
      const { originalPost: _unused, ...original } = makePost({ id: 5, isBookmarked: false });
      void _unused;
      await renderSignedIn({
        post: makePost({
          id: 11,
          author: ben,
          content: '',
          originalPostId: 5,
          originalPost: original,
        }),
      });
      await userEvent.click(screen.getByRole('button', { name: 'Bookmark' }));
      await waitFor(() =>
        expect(callsTo(fetchMock, '/api/posts/5/bookmark', 'POST')).toHaveLength(1),
      );
      cleanup();
      clearStoredAuth();
      renderCard(<PostCard post={makePost()} />);
      expect(screen.getByRole('button', { name: /^Repost/ })).toBeDisabled();
      expect(screen.queryByRole('button', { name: /bookmark/i })).not.toBeInTheDocument();
    });
  });

  describe('#tags and @mentions (issue 40)', () => {
    it("links a post's tags and mentions, and a quote's and its original's", async () => {
      mockFetch(() => ({ status: 500 }));
      const { originalPost: _unused, ...original } = makePost({
        id: 5,
        content: 'Fair with @Ben Larsen #careers',
        mentions: [{ id: 2, start: 10, end: 21 }],
      });
      void _unused;
      await renderSignedIn({
        post: makePost({
          id: 11,
          author: ben,
          content: '',
          originalPostId: 5,
          repostComment: 'Go @Ada Okafor! #Fair2026',
          mentions: [{ id: 1, start: 3, end: 14 }],
          originalPost: original,
        }),
      });
      const quote = screen.getByLabelText("Ben Larsen's comment");
      expect(within(quote).getByRole('link', { name: '@Ada Okafor' })).toHaveAttribute(
        'href',
        '/profile/1',
      );
      expect(within(quote).getByRole('link', { name: '#Fair2026' })).toHaveAttribute(
        'href',
        '/tags/fair2026',
      );
      expect(screen.getByRole('link', { name: '@Ben Larsen' })).toHaveAttribute(
        'href',
        '/profile/2',
      );
      await userEvent.click(screen.getByRole('link', { name: '#careers' }));
      expect(screen.getByTestId('location')).toHaveTextContent('/tags/careers');
    });
    it('mentions a member in a quote with the autocomplete and sends their id', async () => {
      const fetchMock = mockFetch((url) =>
        url.includes('/api/users/mention-suggestions')
          ? {
              status: 200,
              body: [
                {
                  id: 3,
                  name: 'Cleo Park',
                  email: 'cleo@campus.edu',
                  avatarUrl: null,
                  isFollowing: true,
                },
              ],
            }
          : url.endsWith('/api/posts/10/repost')
            ? { status: 201, body: makePost({ id: 99 }) }
            : { status: 500 },
      );
      await renderSignedIn({ post: makePost() });
      await userEvent.click(screen.getByRole('button', { name: 'Repost (1 repost)' }));
      const dialog = await screen.findByRole('dialog', { name: 'Repost' });
      const field = within(dialog).getByRole('textbox', { name: 'Add a comment (optional)' });
      await userEvent.type(field, 'For @cl');
      expect(await within(dialog).findByRole('option', { name: /Cleo Park/ })).toBeInTheDocument();
      await userEvent.keyboard('{Enter}');
      expect(field).toHaveValue('For @Cleo Park ');
      expect(screen.getByRole('dialog', { name: 'Repost' })).toBeInTheDocument();
      await userEvent.click(within(dialog).getByRole('button', { name: 'Repost' }));
      expect(await screen.findByText('Post reposted successfully!')).toBeInTheDocument();
      const [call] = callsTo(fetchMock, '/api/posts/10/repost', 'POST');
      expect(JSON.parse(String(call?.init.body))).toEqual({
        comment: 'For @Cleo Park',
        mentions: [3],
      });
    });
  });

  describe('text and times', () => {
    it('links web addresses, lets text set its direction and truncates nothing itself', async () => {
      mockFetch(() => ({ status: 500 }));
      await renderSignedIn({
        post: makePost({ content: 'مرحبا! Details: https://example.org/fair' }),
      });
      const link = await screen.findByRole('link', { name: 'https://example.org/fair' });
      expect(link).toHaveAttribute('rel', 'noopener nofollow ugc');
      expect(link).toHaveAttribute('target', '_blank');
      const text = link.closest('p');
      expect(text).toHaveAttribute('dir', 'auto');
      expect(text).toHaveTextContent(/^مرحبا! Details: https:\/\/example\.org\/fair$/);
      expect(screen.getByRole('link', { name: 'Ada Okafor' })).toHaveAttribute('dir', 'auto');
      await userEvent.click(link);
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/); // the card did not open
    });

    it('shows the time in a <time datetime> with the exact moment on hover', async () => {
      mockFetch(() => ({ status: 500 }));
      const createdAt = new Date(Date.now() - 5 * 60_000).toISOString();
      await renderSignedIn({ post: makePost({ createdAt }) });
      const time = screen.getByText('5 minutes ago');
      expect(time.tagName).toBe('TIME');
      expect(time).toHaveAttribute('datetime', createdAt);
      expect(time.getAttribute('title')).toMatch(/\d{4}/);
      expect(
        screen.getByRole('link', { name: /^Open post, 5 minutes ago \(.+\)$/ }),
      ).toHaveAttribute('href', '/post/10');
    });
  });
});
