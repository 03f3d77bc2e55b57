import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearStoredAuth } from '@campus/kit/api';
import { emitAppEvent } from '@campus/kit/events';
import { forgetPrefetched, hasPrefetched, prefetchSlot } from '@campus/kit/prefetch';
import { dismissToast } from '@campus/kit/toast';
import {
  ADA,
  BEN,
  callsTo,
  makePost,
  makePosts as posts,
  mockApi,
  renderPage,
  signIn,
} from '@campus/kit/testing';
import FeedPage from './feed-page';

const scrollTo = jest.fn();

beforeEach(() => {
  signIn(ADA);
  window.sessionStorage.clear();
  scrollTo.mockClear();
  window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
  act(() => dismissToast());
});
afterEach(() => {
  clearStoredAuth();
  jest.useRealTimers();
});

/** Answers GET /api/posts with `pages[offset / 20]` for the query's tab. */
function feedApi(byFeed: Record<string, ReturnType<typeof posts>[]>) {
  return mockApi(({ url }) => {
    if (url.pathname !== '/api/posts') return { status: 404 };
    const feed =
      url.searchParams.get('topFilter') === 'true'
        ? 'top'
        : (url.searchParams.get('tab') ?? 'for-you');
    const page = Number(url.searchParams.get('offset')) / 20;
    return { status: 200, body: byFeed[feed]?.[page] ?? [] };
  });
}

describe('FeedPage', () => {
  it('shows skeletons, then For You with Load more until a short page, then No more posts', async () => {
    const first = posts(20);
    const second = posts(5);
    const fetchMock = feedApi({ 'for-you': [first, second] });
    renderPage(<FeedPage />);
    expect(screen.getByRole('tab', { name: 'For You' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getAllByTestId('post-card-skeleton').length).toBeGreaterThan(0);
    expect(await screen.findByText(first[0]!.content)).toBeInTheDocument();
    expect(screen.queryByTestId('post-card-skeleton')).not.toBeInTheDocument();

    const [request] = callsTo(fetchMock, '/api/posts');
    const query = request!.url.searchParams;
    expect(query.has('tab')).toBe(false);
    expect(query.has('topFilter')).toBe(false);
    expect(query.get('userId')).toBe('1');
    expect(query.get('limit')).toBe('20');
    expect(query.get('offset')).toBe('0');
    expect(query.get('_')).toMatch(/^\d+$/);

    // The footer comes with the last cards (drawn after the first ones).
    await userEvent.click(await screen.findByRole('button', { name: 'Load more posts' }));
    expect(await screen.findByText(second[4]!.content)).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(25);
    expect(screen.getByText('No more posts')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more posts' })).not.toBeInTheDocument();
    const more = callsTo(fetchMock, '/api/posts')[1]!.url.searchParams;
    expect(more.get('offset')).toBe('20');
    expect(more.has('_')).toBe(false);
  });

  it("draws the shell's early first page in its first render, then pages on from it", async () => {
    const early = posts(20);
    const second = posts(3);
    const fetchMock = feedApi({ 'for-you': [posts(20), second] });
    const { user } = JSON.parse(window.localStorage.getItem('campus.auth')!) as {
      user: { id: number };
    };
    // As the shell's entry script leaves an early request whose answer has arrived.
    prefetchSlot().set('/api/posts?userId=1&limit=20&offset=0&_=5', {
      userId: user.id,
      startedAt: Date.now(),
      response: Promise.resolve(early),
      answer: { value: early },
    });
    try {
      renderPage(<FeedPage />);
      // No skeleton first, and no second request for the page the shell already has.
      expect(screen.getByText(early[0]!.content)).toBeInTheDocument();
      expect(screen.queryByTestId('post-card-skeleton')).not.toBeInTheDocument();
      expect(screen.getAllByRole('article')).toHaveLength(20);
      // Taken once drawn: a later showing fetches its own.
      expect(hasPrefetched('/api/posts?userId=1&limit=20&offset=0')).toBe(false);
      await userEvent.click(screen.getByRole('button', { name: 'Load more posts' }));
      expect(await screen.findByText(second[2]!.content)).toBeInTheDocument();
      expect(screen.getAllByRole('article')).toHaveLength(23);
      const offsets = callsTo(fetchMock, '/api/posts').map(({ url }) =>
        url.searchParams.get('offset'),
      );
      expect(offsets).toEqual(['20']);
    } finally {
      forgetPrefetched();
    }
  });

  it('says No more posts at once when the first page is short', async () => {
    feedApi({ 'for-you': [posts(3)] });
    renderPage(<FeedPage />);
    expect(await screen.findByText('No more posts')).toBeInTheDocument();
  });

  it.each([
    ['For You', 'Be the first to post something!'],
    ['Following', 'Follow some users to see their posts here'],
    ['JD', 'No job or admission posts available'],
  ])('shows the empty state of %s', async (tab, text) => {
    feedApi({});
    renderPage(<FeedPage />);
    await userEvent.click(screen.getByRole('tab', { name: new RegExp(`^${tab}`) }));
    expect(await screen.findByText(text)).toBeInTheDocument();
  });

  it('when the Following tab is empty, then it offers a way to find people and suggests some (issue 41)', async () => {
    mockApi(({ url }) => {
      if (url.pathname === '/api/users/suggestions') {
        return {
          status: 200,
          body: [
            {
              id: 2,
              name: 'Ben Larsen',
              email: 'ben@campus.edu',
              avatarUrl: null,
              bio: null,
              mutualCount: 1,
              followersCount: 4,
            },
          ],
        };
      }
      return { status: 200, body: [] };
    });
    renderPage(<FeedPage />);
    await userEvent.click(screen.getByRole('tab', { name: 'Following' }));
    expect(await screen.findByText('Follow some users to see their posts here')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Find people to follow' })).toHaveAttribute(
      'href',
      '/search?tab=people',
    );
    const suggestions = await screen.findByRole('region', { name: 'Who to follow' });
    expect(await within(suggestions).findByRole('listitem', { name: 'Ben Larsen' })).toBeVisible();
  });

  it('remembers the tab for the session and asks the API for it', async () => {
    const fetchMock = feedApi({ following: [posts(2)] });
    const { unmount } = renderPage(<FeedPage />);
    await userEvent.click(screen.getByRole('tab', { name: 'Following' }));
    await screen.findByText('No more posts');
    expect(callsTo(fetchMock, '/api/posts').at(-1)!.url.searchParams.get('tab')).toBe('following');
    unmount();
    renderPage(<FeedPage />);
    expect(screen.getByRole('tab', { name: 'Following' })).toHaveAttribute('aria-selected', 'true');
  });

  it('scrolls to the top when the active tab is clicked again', async () => {
    feedApi({ 'for-you': [posts(1)] });
    renderPage(<FeedPage />);
    await userEvent.click(screen.getByRole('tab', { name: 'For You' }));
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });
  });

  it('shows the JD badge and, on JD, the Explore Opportunities banner', async () => {
    const fetchMock = feedApi({ jd: [posts(1)] });
    renderPage(<FeedPage />);
    const jd = screen.getByRole('tab', { name: /^JD/ });
    expect(within(jd).getByText('Jobs')).toBeInTheDocument();
    await userEvent.click(jd);
    const banner = screen.getByRole('link', { name: /Explore Opportunities/ });
    expect(banner).toHaveAttribute('href', '/opportunities');
    expect(banner).toHaveTextContent('Swipe through personalised job recommendations');
    await screen.findByText('No more posts');
    expect(callsTo(fetchMock, '/api/posts').at(-1)!.url.searchParams.get('tab')).toBe('jd');
  });

  it('filters Top Posts with its footer, returns to For You, and leaving For You turns it off', async () => {
    const top = posts(4);
    const fetchMock = feedApi({ 'for-you': [posts(20), posts(20)], top: [top] });
    renderPage(<FeedPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Load more posts' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(40));
    const toggle = screen.getByRole('button', { name: 'Top Posts' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(toggle);
    expect(await screen.findByText('Showing 4 trending posts')).toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByRole('button', { name: 'Load more posts' })).not.toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/posts').at(-1)!.url.searchParams.get('topFilter')).toBe('true');

    await userEvent.click(screen.getByRole('button', { name: 'Return to For You feed' }));
    expect(await screen.findByRole('button', { name: 'Load more posts' })).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(20);
    expect(toggle).toHaveAttribute('aria-pressed', 'false');

    await userEvent.click(toggle);
    await screen.findByText('Showing 4 trending posts');
    await userEvent.click(screen.getByRole('tab', { name: 'Following' }));
    await userEvent.click(screen.getByRole('tab', { name: 'For You' }));
    expect(screen.getByRole('button', { name: 'Top Posts' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });

  it('shows the top-filter empty text', async () => {
    feedApi({ 'for-you': [posts(1)] });
    renderPage(<FeedPage />);
    await screen.findByText('No more posts');
    await userEvent.click(screen.getByRole('button', { name: 'Top Posts' }));
    expect(
      await screen.findByText(
        'No trending posts today. Try posting something to get the conversation started!',
      ),
    ).toBeInTheDocument();
  });

  it('offers Retry after Failed to fetch posts, and shows the feed once it answers', async () => {
    let up = false;
    const page = posts(2);
    const fetchMock = mockApi(({ pathname }) =>
      pathname === '/api/posts' && up
        ? { status: 200, body: page }
        : { status: 500, body: { message: 'down' } },
    );
    renderPage(<FeedPage />);
    await screen.findByRole('heading', { name: 'Failed to fetch posts' });
    up = true;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(page[0]!.content)).toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/posts')).toHaveLength(2);
  });

  it('holds back newer posts by others behind a pill instead of moving the feed', async () => {
    const first = posts(3);
    const others = [makePost({ author: BEN, content: 'Newer by Ben' })];
    let current = first;
    mockApi(({ pathname }) =>
      pathname === '/api/posts' ? { status: 200, body: current } : { status: 200, body: [] },
    );
    renderPage(<FeedPage />);
    await screen.findByText(first[0]!.content);
    current = [...others, ...first];
    act(() => emitAppEvent('postCreated', {})); // a refresh brings Ben's newer post
    const pill = await screen.findByRole('button', { name: '1 new post' });
    expect(screen.queryByText('Newer by Ben')).not.toBeInTheDocument();
    expect(screen.getAllByRole('article')[0]).toHaveTextContent(first[0]!.content);
    await userEvent.click(pill);
    expect(await screen.findByText('Newer by Ben')).toBeInTheDocument();
    expect(screen.getAllByRole('article')[0]).toHaveTextContent('Newer by Ben');
    expect(screen.queryByRole('button', { name: /new post/ })).not.toBeInTheDocument();
    expect(screen.getByRole('tabpanel')).toHaveFocus();
  });

  it('shows Who to follow inside the feed without a right column, with follow buttons', async () => {
    const fetchMock = mockApi(({ pathname, method }) => {
      if (pathname === '/api/posts') return { status: 200, body: posts(5) };
      if (pathname === '/api/users/suggestions') {
        return {
          status: 200,
          body: [
            {
              ...BEN,
              bio: '',
              isFollowing: false,
              mutualCount: 2,
              followersCount: 9,
            },
          ],
        };
      }
      if (method === 'POST' && pathname === `/api/users/${BEN.id}/follow`) {
        return { status: 200, body: { following: true, followersCount: 10 } };
      }
      return { status: 404 };
    });
    renderPage(<FeedPage />);
    const card = await screen.findByRole('region', { name: 'Who to follow' });
    const articles = screen.getAllByRole('article');
    expect(articles[2]!.compareDocumentPosition(card)).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
    const row = await within(card).findByRole('listitem', { name: 'Ben Larsen' });
    expect(row).toHaveTextContent('Followed by 2 people you follow');
    // named after the person (issue 41)
    await userEvent.click(within(row).getByRole('button', { name: 'Follow Ben Larsen' }));
    expect(await within(row).findByRole('button', { name: /Following|Unfollow/ })).toBeVisible();
    expect(callsTo(fetchMock, `/api/users/${BEN.id}/follow`, 'POST')).toHaveLength(1);
  });

  it('says Failed to fetch posts and does not retry', async () => {
    // A retry would be a timer (SWR's back-off starts at seconds): a fake clock runs them all.
    jest.useFakeTimers();
    const fetchMock = mockApi(() => ({ status: 500, body: { message: 'down' } }));
    renderPage(<FeedPage />);
    expect(
      await screen.findByRole('heading', { name: 'Failed to fetch posts' }),
    ).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch posts');
    await act(() => jest.advanceTimersByTimeAsync(10 * 60_000));
    expect(callsTo(fetchMock, '/api/posts')).toHaveLength(1);
  });

  it('only logs a load-more failure', async () => {
    const first = posts(20);
    mockApi(({ url }) =>
      url.searchParams.get('offset') === '0'
        ? { status: 200, body: first }
        : { status: 500, body: { message: 'down' } },
    );
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderPage(<FeedPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Load more posts' }));
    await waitFor(() =>
      expect(log).toHaveBeenCalledWith('Failed to load more posts', expect.anything()),
    );
    expect(screen.getAllByRole('article')).toHaveLength(20);
    expect(screen.getByRole('button', { name: 'Load more posts' })).toBeEnabled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    log.mockRestore();
  });

  it('refreshes on postCreated and drops a deleted post on postDeleted', async () => {
    const first = posts(2);
    const later = [makePost({ author: ADA, content: 'My own new post' })];
    let current = first;
    mockApi(({ pathname }) =>
      pathname === '/api/posts' ? { status: 200, body: current } : { status: 404 },
    );
    renderPage(<FeedPage />);
    await screen.findByText(first[0]!.content);
    current = [...later, ...first];
    act(() => emitAppEvent('postCreated', {}));
    expect(await screen.findByText(later[0]!.content)).toBeInTheDocument();
    act(() => emitAppEvent('postDeleted', { postId: first[0]!.id }));
    await waitFor(() => expect(screen.queryByText(first[0]!.content)).not.toBeInTheDocument());
  });

  it('saves the position on opening a post and restores it within 30 minutes', async () => {
    const pages = [posts(20), posts(20), posts(3)];
    const fetchMock = feedApi({ jd: pages });
    window.sessionStorage.setItem('campus.feed.tab', 'jd');
    const { unmount } = renderPage(<FeedPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Load more posts' }));
    await screen.findByText(pages[1]![0]!.content);
    Object.defineProperty(window, 'scrollY', { value: 1234, configurable: true });
    await userEvent.click(screen.getByText(pages[1]![0]!.content));
    expect(screen.getByTestId('location')).toHaveTextContent(`/post/${pages[1]![0]!.id}`);
    const saved = JSON.parse(window.sessionStorage.getItem('campus.feed.scroll')!);
    expect(saved).toMatchObject({ tab: 'jd', scrollY: 1234, extraPages: 1 });
    unmount();

    fetchMock.mockClear();
    renderPage(<FeedPage />);
    expect(await screen.findByText(pages[1]![19]!.content)).toBeInTheDocument();
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith({ top: 1234, behavior: 'instant' }));
    const offsets = callsTo(fetchMock, '/api/posts').map(({ url }) =>
      url.searchParams.get('offset'),
    );
    expect(offsets).toEqual(['0', '20']);
    expect(window.sessionStorage.getItem('campus.feed.scroll')).toBeNull();
  });

  it('drops a saved position older than 30 minutes', async () => {
    const fetchMock = feedApi({ 'for-you': [posts(20), posts(20)] });
    window.sessionStorage.setItem(
      'campus.feed.scroll',
      JSON.stringify({
        tab: 'for-you',
        top: false,
        scrollY: 900,
        extraPages: 1,
        savedAt: Date.now() - 31 * 60_000,
      }),
    );
    renderPage(<FeedPage />);
    await screen.findByRole('button', { name: 'Load more posts' });
    expect(screen.getAllByRole('article')).toHaveLength(20);
    expect(callsTo(fetchMock, '/api/posts')).toHaveLength(1);
    expect(scrollTo).not.toHaveBeenCalled();
    expect(window.sessionStorage.getItem('campus.feed.scroll')).toBeNull();
  });
});
