import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearStoredAuth } from '@campus/kit/api';
import { emitAppEvent } from '@campus/kit/events';
import { dismissToast } from '@campus/kit/toast';
import {
  ADA,
  callsTo,
  makePost,
  makePosts,
  mockApi,
  renderPage,
  signIn,
} from '@campus/kit/testing';
import BookmarksPage from './bookmarks-page';

beforeEach(() => {
  signIn(ADA);
  act(() => dismissToast());
});
afterEach(() => clearStoredAuth());

describe('BookmarksPage', () => {
  it('lists the bookmarked posts, pages with the cursor, and drops a deleted one', async () => {
    const first = makePosts(20).map((post) => ({ ...post, isBookmarked: true }));
    const kept = makePost({ content: 'Kept for later', isBookmarked: true });
    const api = mockApi(({ pathname, url }) => {
      if (pathname !== '/api/bookmarks') return undefined;
      return url.searchParams.get('cursor')
        ? { status: 200, body: { posts: [kept], nextCursor: null } }
        : { status: 200, body: { posts: first, nextCursor: 'b.20' } };
    });
    renderPage(<BookmarksPage />, { path: '/bookmarks' });
    expect(screen.getByRole('heading', { name: 'Bookmarks' })).toBeInTheDocument();
    const list = await screen.findByRole('region', { name: 'Bookmarked posts' });
    expect(within(list).getByText(first[0]!.content)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Load more posts' }));
    expect(await screen.findByText('Kept for later')).toBeInTheDocument();
    expect(callsTo(api, '/api/bookmarks').at(-1)!.url.searchParams.get('cursor')).toBe('b.20');

    await act(async () => emitAppEvent('postDeleted', { postId: first[0]!.id }));
    expect(screen.queryByText(first[0]!.content)).not.toBeInTheDocument();
  });

  it('drops a post whose bookmark is removed here, once the API confirms it', async () => {
    const [kept, dropped] = makePosts(2).map((post) => ({ ...post, isBookmarked: true }));
    mockApi(({ pathname, method }) => {
      if (pathname === '/api/bookmarks')
        return { status: 200, body: { posts: [kept, dropped], nextCursor: null } };
      if (pathname === `/api/posts/${dropped!.id}/bookmark` && method === 'DELETE')
        return { status: 200, body: { postId: dropped!.id, bookmarked: false } };
      return undefined;
    });
    renderPage(<BookmarksPage />, { path: '/bookmarks' });
    const card = (await screen.findByText(dropped!.content)).closest('article')!;
    await userEvent.click(within(card).getByRole('button', { name: 'Remove bookmark' }));
    await waitFor(() => expect(screen.queryByText(dropped!.content)).not.toBeInTheDocument());
    expect(screen.getByText(kept!.content)).toBeInTheDocument();
  });

  it('has an empty state', async () => {
    mockApi(({ pathname }) =>
      pathname === '/api/bookmarks'
        ? { status: 200, body: { posts: [], nextCursor: null } }
        : undefined,
    );
    renderPage(<BookmarksPage />, { path: '/bookmarks' });
    expect(
      await screen.findByText('No bookmarks yet. Bookmark a post to find it here later.'),
    ).toBeInTheDocument();
  });

  it('offers Retry when the first page fails, and Retry asks again', async () => {
    let calls = 0;
    mockApi(({ pathname }) => {
      if (pathname !== '/api/bookmarks') return undefined;
      calls += 1;
      return calls === 1
        ? { status: 500, body: { message: 'boom' } }
        : { status: 200, body: { posts: [makePost({ content: 'Back again' })], nextCursor: null } };
    });
    renderPage(<BookmarksPage />, { path: '/bookmarks' });
    expect(await screen.findByText('Failed to fetch bookmarks')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Back again')).toBeInTheDocument();
  });
});
