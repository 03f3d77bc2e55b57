import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import { clearStoredAuth } from '@campus/kit/api';
import { dismissToast } from '@campus/kit/toast';
import {
  ADA,
  BEN,
  callsTo,
  makePost,
  makePosts,
  mockApi,
  renderPage,
  signIn,
} from '@campus/kit/testing';
import PostSearchResults from './post-search-results';

function WithUrl() {
  const { search } = useLocation();
  return (
    <>
      <PostSearchResults />
      <output aria-label="search">{search}</output>
    </>
  );
}
const url = () =>
  new URLSearchParams(screen.getByRole('status', { name: 'search' }).textContent ?? '');

beforeEach(() => {
  signIn(ADA);
  act(() => dismissToast());
});
afterEach(() => clearStoredAuth());

describe('PostSearchResults', () => {
  it('searches the URL’s words, pages with the cursor, and ends with No more posts', async () => {
    const first = makePosts(20);
    const second = [makePost({ content: 'The last exam post' })];
    const api = mockApi(({ pathname, url: request }) => {
      if (pathname !== '/api/search/posts') return undefined;
      const cursor = request.searchParams.get('cursor');
      if (!cursor) return { status: 200, body: { posts: first, nextCursor: 'c2.abc' } };
      if (cursor === 'c2.abc') return { status: 200, body: { posts: second, nextCursor: null } };
      return { status: 400, body: { message: 'bad cursor' } };
    });
    renderPage(<WithUrl />, { path: '/search?tab=posts&q=exam%20week' });
    expect(await screen.findByText(first[0]!.content)).toBeInTheDocument();
    const [request] = callsTo(api, '/api/search/posts');
    expect(Object.fromEntries(request!.url.searchParams)).toEqual({ q: 'exam week' });

    await userEvent.click(screen.getByRole('button', { name: 'Load more posts' }));
    expect(await screen.findByText('The last exam post')).toBeInTheDocument();
    expect(callsTo(api, '/api/search/posts').at(-1)!.url.searchParams.get('cursor')).toBe('c2.abc');
    expect(screen.getByText('No more posts')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more posts' })).not.toBeInTheDocument();
  });

  it('keeps the filters in the URL and asks the API with them', async () => {
    const jdPost = makePost({ content: 'Internship at the lab', isJdTagged: true });
    const api = mockApi(({ pathname, url: request }) => {
      if (pathname === '/api/users/2') return { status: 200, body: { ...BEN, bio: '' } };
      if (pathname !== '/api/search/posts') return undefined;
      const jd = request.searchParams.get('jd') === 'true';
      return {
        status: 200,
        body: {
          posts: jd ? [jdPost] : [makePost({ content: 'Lab notes' }), jdPost],
          nextCursor: null,
        },
      };
    });
    renderPage(<WithUrl />, { path: '/search?tab=posts&q=lab&from=2' });
    expect(await screen.findByText('Lab notes')).toBeInTheDocument();
    expect(await screen.findByText('Ben Larsen', { selector: 'strong' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('checkbox', { name: 'JD posts only' }));
    expect(url().get('jd')).toBe('true');
    await waitFor(() => expect(screen.queryByText('Lab notes')).not.toBeInTheDocument());
    expect(screen.getByText('Internship at the lab')).toBeInTheDocument();
    const last = callsTo(api, '/api/search/posts').at(-1)!.url.searchParams;
    expect(Object.fromEntries(last)).toEqual({ q: 'lab', from: '2', jd: 'true' });

    await userEvent.click(screen.getByRole('checkbox', { name: 'With images' }));
    expect(url().get('images')).toBe('true');
    const since = screen.getByLabelText('From date');
    await userEvent.type(since, '2026-11-01');
    await waitFor(() => expect(url().get('since')).toBe('2026-11-01'));
    await waitFor(() =>
      expect(callsTo(api, '/api/search/posts').at(-1)!.url.searchParams.get('since')).toBe(
        '2026-11-01',
      ),
    );
    expect(callsTo(api, '/api/search/posts').at(-1)!.url.searchParams.get('images')).toBe('true');

    await userEvent.click(screen.getByRole('button', { name: 'Any member' }));
    expect(url().has('from')).toBe(false);
    expect(screen.getByRole('searchbox', { name: 'From a member' })).toBeInTheDocument();
  });

  it('chooses the member to search posts from by name', async () => {
    const api = mockApi(({ pathname, url: request }) => {
      if (pathname === '/api/users' && request.searchParams.get('q')) {
        return { status: 200, body: [{ ...BEN, bio: '', isFollowing: false }] };
      }
      if (pathname === '/api/users/2') return { status: 200, body: { ...BEN, bio: '' } };
      if (pathname === '/api/search/posts')
        return { status: 200, body: { posts: [], nextCursor: null } };
      return undefined;
    });
    renderPage(<WithUrl />, { path: '/search?tab=posts&q=lab' });
    await userEvent.type(screen.getByRole('searchbox', { name: 'From a member' }), 'Be');
    const people = await screen.findByRole('list', { name: 'Members to search posts from' });
    await userEvent.click(within(people).getByRole('button', { name: 'Ben Larsen' }));
    expect(url().get('from')).toBe('2');
    await waitFor(() =>
      expect(callsTo(api, '/api/search/posts').at(-1)!.url.searchParams.get('from')).toBe('2'),
    );
  });

  it('leaves out a filter the API would refuse, and says when nothing matches', async () => {
    const api = mockApi(({ pathname }) =>
      pathname === '/api/search/posts'
        ? { status: 200, body: { posts: [], nextCursor: null } }
        : undefined,
    );
    renderPage(<WithUrl />, { path: '/search?tab=posts&q=zz&jd=maybe&since=yesterday&from=x' });
    expect(await screen.findByText('No posts match “zz”.')).toBeInTheDocument();
    expect(Object.fromEntries(callsTo(api, '/api/search/posts')[0]!.url.searchParams)).toEqual({
      q: 'zz',
    });
  });

  it('shows the API’s reason when it refuses a search', async () => {
    mockApi(({ pathname }) =>
      pathname === '/api/search/posts'
        ? { status: 429, body: { message: 'Too many searches: wait a minute.' } }
        : undefined,
    );
    renderPage(<WithUrl />, { path: '/search?tab=posts&q=exam' });
    expect(await screen.findByText('Post search failed')).toBeInTheDocument();
    expect(screen.getByText('Too many searches: wait a minute.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('asks nothing while there are no words', async () => {
    const api = mockApi(() => undefined);
    renderPage(<WithUrl />, { path: '/search?tab=posts&q=%20%20' });
    expect(screen.getByText('Type words to search posts and quotes.')).toBeInTheDocument();
    await waitFor(() => expect(callsTo(api, '/api/auth/me')).toHaveLength(1));
    expect(callsTo(api, '/api/search/posts')).toHaveLength(0);
  });
});
