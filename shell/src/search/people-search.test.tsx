import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearStoredAuth } from '@campus/kit/api';
import { dismissToast } from '@campus/kit/toast';
import { ADA, BEN, callsTo, mockApi, renderPage, signIn } from '@campus/kit/testing';
import { AiSearchPage } from './ai-search-page';

const carla = { id: 3, name: 'Carla Núñez', email: 'carla.nunez@campus.edu', avatarUrl: null };

function searchApi() {
  return mockApi(({ pathname, url }) => {
    if (pathname !== '/api/users') return { status: 404 };
    const q = url.searchParams.get('q') ?? '';
    const people = [
      { ...BEN, bio: '', isFollowing: true },
      { ...carla, bio: '', isFollowing: false },
    ].filter((person) => person.name.toLowerCase().includes(q.toLowerCase().slice(0, 1)));
    return { status: 200, body: people };
  });
}

beforeEach(() => {
  signIn(ADA);
  act(() => dismissToast());
});
afterEach(() => clearStoredAuth());

describe('People search on /search', () => {
  it('asks once typing pauses and lists people above the untouched AI search tiles', async () => {
    const api = searchApi();
    renderPage(<AiSearchPage />);
    const field = screen.getByRole('searchbox', { name: 'Search people' });
    await userEvent.type(field, 'Car');
    const results = await screen.findByRole('list', { name: 'People' });
    expect(callsTo(api, '/api/users')).toHaveLength(1);
    expect(callsTo(api, '/api/users')[0]!.url.searchParams.get('q')).toBe('Car');
    expect(within(results).getByRole('link', { name: /Carla Núñez/ })).toHaveAttribute(
      'href',
      '/profile/3',
    );
    expect(screen.getByText('1 person found')).toHaveAttribute('role', 'status');

    const tiles = screen.getByRole('button', { name: 'Build my CV' });
    expect(tiles).toBeDisabled();
    expect(results.compareDocumentPosition(tiles)).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
    expect(screen.getByRole('heading', { name: 'AI Search' })).toBeInTheDocument();
    expect(screen.getByText('Check back later to see magic...')).toBeInTheDocument();
  });

  it('walks the results with the arrow keys and back to the field; Escape clears', async () => {
    searchApi();
    renderPage(<AiSearchPage />);
    const field = screen.getByRole('searchbox', { name: 'Search people' });
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
    field.focus();
    await userEvent.keyboard('{Escape}');
    expect(field).toHaveValue('');
    await waitFor(() =>
      expect(screen.queryByRole('list', { name: 'People' })).not.toBeInTheDocument(),
    );
  });

  it('says when nobody matches', async () => {
    mockApi(() => ({ status: 200, body: [] }));
    renderPage(<AiSearchPage />);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search people' }), 'zz');
    expect(await screen.findByText('No people found')).toBeInTheDocument();
  });
});
