import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation, useNavigate } from 'react-router-dom';
import { clearStoredAuth } from '@campus/kit/api';
import { dismissToast } from '@campus/kit/toast';
import {
  ADA,
  BEN,
  callsTo,
  mockApi,
  renderPage,
  signIn,
  type ApiHandler,
} from '@campus/kit/testing';
import { AiSearchPage } from './ai-search-page';
import { RECENT_SEARCHES_KEY } from './recent-searches';

const carla = { id: 3, name: 'Carla Núñez', email: 'carla.nunez@campus.edu', avatarUrl: null };

/** The page, with the router's query string (`output` "search") and a Back button beside it. */
function SearchWithUrl() {
  const { search } = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <AiSearchPage />
      <output aria-label="search">{search}</output>
      <button type="button" onClick={() => void navigate(-1)}>
        Back
      </button>
    </>
  );
}

const url = () =>
  new URLSearchParams(screen.getByRole('status', { name: 'search' }).textContent ?? '');

/** People whose name has q's first letter; tags starting with q; today's trending tags. */
function searchApi(extra: ApiHandler = () => undefined) {
  return mockApi((call) => {
    const { pathname, url: requestUrl } = call;
    const q = requestUrl.searchParams.get('q') ?? '';
    if (pathname === '/api/users') {
      const people = [
        { ...BEN, bio: '', isFollowing: true },
        { ...carla, bio: '', isFollowing: false },
      ].filter((person) => person.name.toLowerCase().includes(q.toLowerCase().slice(0, 1)));
      return { status: 200, body: people };
    }
    if (pathname === '/api/search/tags') {
      const tags = [
        { tag: 'campus_life', postsCount: 12 },
        { tag: 'café', postsCount: 1 },
      ].filter(({ tag }) => tag.startsWith(q.replace(/^#/, '').toLowerCase()));
      return { status: 200, body: { tags } };
    }
    if (pathname === '/api/tags/trending') {
      return {
        status: 200,
        body: {
          day: '2026-11-29',
          timeZone: 'Europe/Oslo',
          tags: [
            { tag: 'exams', postsCount: 9, authorsCount: 7 },
            { tag: 'مرحبا', postsCount: 2, authorsCount: 1 },
          ],
        },
      };
    }
    return extra(call);
  });
}

beforeEach(() => {
  signIn(ADA);
  window.localStorage.clear();
  act(() => dismissToast());
});
afterEach(() => clearStoredAuth());

describe('Search on /search, people', () => {
  it('puts what is typed in the URL once typing pauses and lists people above the untouched AI search tiles', async () => {
    const api = searchApi();
    renderPage(<SearchWithUrl />, { path: '/search' });
    const field = screen.getByRole('searchbox', { name: 'Search people, posts and tags' });
    expect(screen.getByRole('tab', { name: 'People' })).toHaveAttribute('aria-selected', 'true');
    await userEvent.type(field, 'Car');
    const results = await screen.findByRole('list', { name: 'People' });
    expect(url().get('q')).toBe('Car');
    // Asked once typing paused (a machine slow enough to pause mid-word may ask for a prefix first).
    const asked = callsTo(api, '/api/users').map((call) => call.url.searchParams.get('q'));
    expect(asked.at(-1)).toBe('Car');
    expect(asked.every((q) => q && 'Car'.startsWith(q))).toBe(true);
    expect(within(results).getByRole('link', { name: /Carla Núñez/ })).toHaveAttribute(
      'href',
      '/profile/3',
    );
    expect(screen.getByText('1 person found')).toHaveAttribute('role', 'status');

    const tiles = screen.getByRole('button', { name: 'Build my CV' });
    expect(tiles).toBeDisabled();
    expect(results.compareDocumentPosition(tiles)).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
    expect(screen.getByRole('heading', { name: 'AI Search' })).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Ask anything about campus...')).toBeDisabled();
    expect(screen.getByText('Check back later to see magic...')).toBeInTheDocument();
    for (const name of ['Find alums', 'Find resources']) {
      expect(screen.getByRole('button', { name })).toBeDisabled();
    }
    // The way to the bookmarks on a phone (the sidebar has one on a wide screen).
    expect(screen.getByRole('link', { name: 'Bookmarks' })).toHaveAttribute('href', '/bookmarks');
  });

  it('walks the results with the arrow keys and back to the field; Escape clears', async () => {
    searchApi();
    renderPage(<SearchWithUrl />, { path: '/search' });
    const field = screen.getByRole('searchbox', { name: 'Search people, posts and tags' });
    await userEvent.type(field, 'e');
    const results = await screen.findByRole('list', { name: 'People' });
    const [ben, carlaLink] = within(results).getAllByRole('link');
    await userEvent.keyboard('{ArrowDown}');
    expect(ben).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(carlaLink).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(carlaLink).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}{ArrowUp}');
    expect(field).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}{Tab}');
    expect(within(results).getByRole('button', { name: /Following|Unfollow/ })).toHaveFocus();
    act(() => field.focus());
    await userEvent.keyboard('{Escape}');
    expect(field).toHaveValue('');
    await waitFor(() => expect(url().has('q')).toBe(false));
    expect(screen.queryByRole('list', { name: 'People' })).not.toBeInTheDocument();
  });

  it('says when nobody matches', async () => {
    mockApi(() => ({ status: 200, body: [] }));
    renderPage(<SearchWithUrl />, { path: '/search' });
    await userEvent.type(
      screen.getByRole('searchbox', { name: 'Search people, posts and tags' }),
      'zz',
    );
    expect(await screen.findByText('No people found')).toBeInTheDocument();
  });
});

describe('Search on /search, tabs and the URL', () => {
  it('opens a shared link on its tab with its words, and lists tags linking to their pages', async () => {
    const api = searchApi();
    renderPage(<SearchWithUrl />, { path: '/search?q=ca&tab=tags' });
    expect(screen.getByRole('searchbox', { name: 'Search people, posts and tags' })).toHaveValue(
      'ca',
    );
    expect(screen.getByRole('tab', { name: 'Tags' })).toHaveAttribute('aria-selected', 'true');
    const tags = await screen.findByRole('list', { name: 'Tags' });
    expect(within(tags).getByRole('link', { name: /#campus_life/ })).toHaveAttribute(
      'href',
      '/tags/campus_life',
    );
    expect(within(tags).getByRole('link', { name: /#café\s*1 post$/ })).toHaveAttribute(
      'href',
      `/tags/${encodeURIComponent('café')}`,
    );
    expect(callsTo(api, '/api/search/tags')[0]!.url.searchParams.get('q')).toBe('ca');
    expect(callsTo(api, '/api/users')).toHaveLength(0);

    // Opening a result keeps the search among the recent ones.
    await userEvent.click(within(tags).getByRole('link', { name: /#campus_life/ }));
    expect(screen.getByRole('status', { name: 'location' })).toHaveTextContent('/tags/campus_life');
    expect(JSON.parse(window.localStorage.getItem(RECENT_SEARCHES_KEY) ?? '[]')).toEqual(['ca']);
  });

  it('adds a history entry per tab and for the first words, so Back steps through the search', async () => {
    searchApi();
    renderPage(<SearchWithUrl />, { path: '/search' });
    const field = screen.getByRole('searchbox', { name: 'Search people, posts and tags' });
    await userEvent.type(field, 'ca');
    await waitFor(() => expect(url().get('q')).toBe('ca'));
    await userEvent.type(field, 'm');
    await waitFor(() => expect(url().get('q')).toBe('cam'));

    await userEvent.click(screen.getByRole('tab', { name: 'Tags' }));
    expect(url().get('tab')).toBe('tags');
    expect(url().get('q')).toBe('cam');
    expect(await screen.findByRole('list', { name: 'Tags' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('tab', { name: 'People' })).toHaveAttribute('aria-selected', 'true');
    expect(url().get('q')).toBe('cam'); // later edits replaced the first words' entry
    expect(field).toHaveValue('cam');

    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(url().has('q')).toBe(false);
    expect(field).toHaveValue('');
  });

  it('keeps the tab chosen right after typing, and searches what was typed on it', async () => {
    searchApi();
    renderPage(<SearchWithUrl />, { path: '/search' });
    const field = screen.getByRole('searchbox', { name: 'Search people, posts and tags' });
    // Typed and a tab chosen before the pause is over: the typing's own wait must not put the
    // old tab back when it ends.
    await userEvent.type(field, 'cam');
    await userEvent.click(screen.getByRole('tab', { name: 'Tags' }));
    expect(url().get('tab')).toBe('tags');
    expect(url().get('q')).toBe('cam');
    expect(await screen.findByRole('list', { name: 'Tags' })).toBeInTheDocument();
    await userEvent.type(field, 'p');
    await waitFor(() => expect(url().get('q')).toBe('camp'));
    expect(url().get('tab')).toBe('tags');
  });

  it('shows the Tags tab for a search that starts with # and names no tab', async () => {
    const api = searchApi();
    renderPage(<SearchWithUrl />, { path: '/search' });
    await userEvent.type(
      screen.getByRole('searchbox', { name: 'Search people, posts and tags' }),
      '#cam',
    );
    const tags = await screen.findByRole('list', { name: 'Tags' });
    expect(screen.getByRole('tab', { name: 'Tags' })).toHaveAttribute('aria-selected', 'true');
    expect(within(tags).getByRole('link', { name: /#campus_life/ })).toBeInTheDocument();
    expect(callsTo(api, '/api/search/tags').at(-1)!.url.searchParams.get('q')).toBe('#cam');
  });

  it('tells the Tabs pattern which panel is shown', async () => {
    searchApi();
    renderPage(<SearchWithUrl />, { path: '/search?q=ca&tab=tags' });
    const panel = screen.getByRole('tabpanel');
    expect(panel).toHaveAttribute('aria-labelledby', 'search-tags');
    screen.getByRole('tab', { name: 'Tags' }).focus();
    await userEvent.keyboard('{ArrowLeft}');
    expect(url().get('tab')).toBe('posts');
    expect(screen.getByRole('tab', { name: 'Posts' })).toHaveFocus();
  });
});

describe('Search on /search, with nothing typed', () => {
  it('shows Trending today linking to tag pages', async () => {
    searchApi();
    renderPage(<SearchWithUrl />, { path: '/search' });
    const trending = await screen.findByRole('region', { name: 'Trending today' });
    expect(within(trending).getByRole('link', { name: /#exams\s*7 people/ })).toHaveAttribute(
      'href',
      '/tags/exams',
    );
    expect(within(trending).getByRole('link', { name: /#مرحبا/ })).toHaveAttribute(
      'href',
      `/tags/${encodeURIComponent('مرحبا')}`,
    );
  });

  it('keeps searches run with Enter on the device, newest first, runs one again, and clears them', async () => {
    searchApi();
    window.localStorage.setItem(
      RECENT_SEARCHES_KEY,
      JSON.stringify(Array.from({ length: 10 }, (_, index) => `old ${index}`)),
    );
    renderPage(<SearchWithUrl />, { path: '/search' });
    const field = screen.getByRole('searchbox', { name: 'Search people, posts and tags' });
    await userEvent.type(field, 'Carla{Enter}');
    expect(url().get('q')).toBe('Carla');
    const stored = JSON.parse(window.localStorage.getItem(RECENT_SEARCHES_KEY) ?? '[]') as string[];
    expect(stored).toHaveLength(10);
    expect(stored[0]).toBe('Carla');
    expect(stored).not.toContain('old 9');

    await userEvent.clear(field);
    await waitFor(() => expect(url().has('q')).toBe(false));
    const recent = screen.getByRole('region', { name: 'Recent searches' });
    const buttons = within(recent).getAllByRole('button', { name: /./ });
    expect(buttons[0]).toHaveTextContent('Clear recent searches');
    expect(buttons[1]).toHaveTextContent('Carla');

    await userEvent.click(within(recent).getByRole('button', { name: 'old 3' }));
    expect(url().get('q')).toBe('old 3');
    expect(field).toHaveValue('old 3');
    expect(JSON.parse(window.localStorage.getItem(RECENT_SEARCHES_KEY) ?? '[]')[0]).toBe('old 3');

    await userEvent.clear(field);
    await userEvent.click(await screen.findByRole('button', { name: 'Clear recent searches' }));
    expect(screen.queryByRole('region', { name: 'Recent searches' })).not.toBeInTheDocument();
    expect(window.localStorage.getItem(RECENT_SEARCHES_KEY)).toBeNull();
  });

  it('lives without storage: a broken list is ignored', async () => {
    searchApi();
    window.localStorage.setItem(RECENT_SEARCHES_KEY, '{not json');
    renderPage(<SearchWithUrl />, { path: '/search' });
    expect(await screen.findByRole('region', { name: 'Trending today' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Recent searches' })).not.toBeInTheDocument();
  });
});
