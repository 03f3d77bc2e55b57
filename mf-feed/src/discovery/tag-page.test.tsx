import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearStoredAuth } from '@campus/kit/api';
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
import TagPage from './tag-page';

beforeEach(() => {
  signIn(ADA);
  act(() => dismissToast());
});
afterEach(() => clearStoredAuth());

const tagPage = (overrides: Record<string, unknown> = {}) => ({
  tag: 'cafe',
  postsCount: 21,
  isFollowed: false,
  posts: [],
  nextCursor: null,
  ...overrides,
});

describe('TagPage', () => {
  it('shows #tag, its count and posts newest first, paged with the cursor', async () => {
    const first = makePosts(20);
    const older = makePost({ content: 'An older #Café post' });
    const api = mockApi(({ pathname, url }) => {
      if (pathname !== '/api/tags/cafe') return undefined;
      return url.searchParams.get('cursor') === 'next.1'
        ? { status: 200, body: tagPage({ posts: [older] }) }
        : { status: 200, body: tagPage({ posts: first, nextCursor: 'next.1' }) };
    });
    // Written with a capital and an accent: the page asks for the tag as stored (folded).
    renderPage(<TagPage />, {
      path: `/tags/${encodeURIComponent('Cafe\u0301')}`,
      route: '/tags/:tag',
    });
    expect(await screen.findByText(first[0]!.content)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: '#cafe' })).toBeInTheDocument();
    expect(screen.getByText('21 posts')).toBeInTheDocument();
    expect(callsTo(api, '/api/tags/cafe')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Load more posts' }));
    // the post's own #Café is a link to the tag's page (the kit's text, issue 40)
    const tagLink = await screen.findByRole('link', { name: '#Café' });
    expect(tagLink).toHaveAttribute('href', '/tags/cafe');
    expect(tagLink.closest('p')).toHaveTextContent('An older #Café post');
    expect(screen.getByText('No more posts')).toBeInTheDocument();
  });

  it('follows and unfollows the tag (aria-pressed), and puts it back when the API refuses', async () => {
    let follows = 0;
    const api = mockApi(({ method, pathname }) => {
      if (pathname === '/api/tags/exams') {
        return { status: 200, body: tagPage({ tag: 'exams', postsCount: 1, posts: [makePost()] }) };
      }
      if (pathname === '/api/tags/exams/follow' && method === 'POST') {
        follows += 1;
        return follows === 1
          ? { status: 200, body: { tag: 'exams', followed: true } }
          : { status: 400, body: { message: 'You can follow at most 500 tags' } };
      }
      if (pathname === '/api/tags/exams/follow' && method === 'DELETE') {
        return { status: 200, body: { tag: 'exams', followed: false } };
      }
      return undefined;
    });
    renderPage(<TagPage />, { path: '/tags/exams', route: '/tags/:tag' });
    expect(await screen.findByText('1 post')).toBeInTheDocument();
    const follow = screen.getByRole('button', { name: 'Follow #exams' });
    expect(follow).toHaveAttribute('aria-pressed', 'false');

    await userEvent.click(follow);
    await waitFor(() => expect(follow).toHaveAttribute('aria-pressed', 'true'));
    await waitFor(() => expect(follow).toBeEnabled());
    expect(callsTo(api, '/api/tags/exams/follow', 'POST')[0]!.init.body).toBe('{}');

    await userEvent.click(follow);
    await waitFor(() => expect(follow).toBeEnabled());
    expect(follow).toHaveAttribute('aria-pressed', 'false');
    expect(callsTo(api, '/api/tags/exams/follow', 'DELETE')).toHaveLength(1);

    await userEvent.click(follow);
    expect(await screen.findByText('You can follow at most 500 tags')).toBeInTheDocument();
    await waitFor(() => expect(follow).toBeEnabled());
    expect(follow).toHaveAttribute('aria-pressed', 'false');
  });

  it('starts pressed for a followed tag', async () => {
    mockApi(({ pathname }) =>
      pathname === '/api/tags/exams'
        ? { status: 200, body: tagPage({ tag: 'exams', isFollowed: true, posts: [makePost()] }) }
        : undefined,
    );
    renderPage(<TagPage />, { path: '/tags/exams', route: '/tags/:tag' });
    const follow = await screen.findByRole('button', { name: 'Follow #exams' });
    expect(follow).toHaveAttribute('aria-pressed', 'true');
  });

  it('shows an empty page for a tag no post has', async () => {
    mockApi(({ pathname }) =>
      pathname === '/api/tags/nobody_uses_this'
        ? { status: 200, body: tagPage({ tag: 'nobody_uses_this', postsCount: 0 }) }
        : undefined,
    );
    renderPage(<TagPage />, { path: '/tags/nobody_uses_this', route: '/tags/:tag' });
    expect(await screen.findByText('No posts with #nobody_uses_this yet.')).toBeInTheDocument();
    expect(screen.getByText('0 posts')).toBeInTheDocument();
  });

  it('says so, and asks nothing, for something that cannot be a tag', async () => {
    const api = mockApi(() => undefined);
    renderPage(<TagPage />, { path: '/tags/%24where', route: '/tags/:tag' });
    expect(screen.getByRole('heading', { name: 'Not a tag' })).toBeInTheDocument();
    await waitFor(() => expect(callsTo(api, '/api/auth/me')).toHaveLength(1));
    expect(api.mock.calls.filter(([target]) => String(target).includes('/api/tags'))).toHaveLength(
      0,
    );
  });
});
