import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { dismissToast } from '@campus/kit/toast';
import { ADA, BEN, mockApi, profileOf, renderPage } from '@campus/kit/testing';
import FollowListPage, { type FollowListKind } from './follow-list-page';

const row = (user: typeof ADA, extra: Partial<{ bio: string; isFollowing: boolean }> = {}) => ({
  ...user,
  bio: '',
  isFollowing: false,
  ...extra,
});

function renderList(kind: FollowListKind, path: string) {
  return renderPage(<FollowListPage kind={kind} />, {
    path,
    route: `/profile/:userId/${kind}`,
    signedInAs: ADA,
  });
}

beforeEach(() => act(() => dismissToast()));
afterEach(() => window.localStorage.clear());

describe('FollowListPage', () => {
  it("titles the list with the user's name and count and hides the follow button on the viewer's row", async () => {
    mockApi(({ path }) => {
      if (path === '/api/users/2')
        return { status: 200, body: profileOf(BEN, { followersCount: 2 }) };
      if (path === '/api/users/2/followers')
        return {
          status: 200,
          body: [
            row(
              { id: 3, name: 'Chiara Rossi', email: 'chiara.rossi@campus.edu', avatarUrl: null },
              { bio: 'Design', isFollowing: true },
            ),
            row(ADA),
          ],
        };
      return undefined;
    });
    renderList('followers', '/profile/2/followers');
    expect(
      await screen.findByRole('heading', { name: "Ben Larsen's Followers (2)" }),
    ).toBeInTheDocument();
    const chiara = await screen.findByRole('article', { name: 'Chiara Rossi' });
    expect(chiara).toHaveTextContent('@chiara.rossi');
    expect(chiara).toHaveTextContent('Design');
    expect(
      await within(chiara).findByRole('button', { name: 'Following Chiara Rossi' }),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('article', { name: 'Ada Okafor' })).queryByRole('button'),
    ).toBeNull();
  });

  it("follows someone from another user's list and the row turns into Following", async () => {
    let following = false;
    mockApi(({ method, path }) => {
      if (path === '/api/users/2') return { status: 200, body: profileOf(BEN) };
      if (path === '/api/users/2/following')
        return {
          status: 200,
          body: [
            row(
              { id: 3, name: 'Chiara Rossi', email: 'chiara.rossi@campus.edu', avatarUrl: null },
              { isFollowing: following },
            ),
          ],
        };
      if (method === 'POST' && path === '/api/users/3/follow') {
        following = true;
        return { status: 200, body: { following: true, followersCount: 1 } };
      }
      return undefined;
    });
    renderList('following', '/profile/2/following');
    const chiara = await screen.findByRole('article', { name: 'Chiara Rossi' });
    // named after the person (issue 41)
    await userEvent.click(
      await within(chiara).findByRole('button', { name: 'Follow Chiara Rossi' }),
    );
    expect(await screen.findByText('Follow status updated!')).toBeInTheDocument();
    expect(
      await within(screen.getByRole('article', { name: 'Chiara Rossi' })).findByRole('button', {
        name: /^(Following|Unfollow) Chiara Rossi$/,
      }),
    ).toBeInTheDocument();
  });

  it('says when a user follows nobody', async () => {
    mockApi(({ path }) => {
      if (path === '/api/users/2') return { status: 200, body: profileOf(BEN) };
      if (path === '/api/users/2/following') return { status: 200, body: [] };
      return undefined;
    });
    renderList('following', '/profile/2/following');
    expect(await screen.findByText("Ben Larsen isn't following anyone yet.")).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: "Ben Larsen's Following (0)" })).toBeInTheDocument();
  });

  it('says when a user has no followers', async () => {
    mockApi(({ path }) => {
      if (path === '/api/users/2') return { status: 200, body: profileOf(BEN) };
      if (path === '/api/users/2/followers') return { status: 200, body: [] };
      return undefined;
    });
    renderList('followers', '/profile/2/followers');
    expect(await screen.findByText('Ben Larsen has no followers yet.')).toBeInTheDocument();
  });

  it.each([
    ['following', 'Failed to fetch following'],
    ['followers', 'Failed to fetch followers'],
  ] as const)('shows %s load failures', async (kind, message) => {
    mockApi(({ path }) => {
      if (path === '/api/users/2') return { status: 200, body: profileOf(BEN) };
      if (path === `/api/users/2/${kind}`) return { status: 500, body: { message: 'boom' } };
      return undefined;
    });
    renderList(kind, `/profile/2/${kind}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });

  it('says the list failed to load, not that it is empty, and offers Retry (issue 41)', async () => {
    let failing = true;
    mockApi(({ path }) => {
      if (path === '/api/users/2') return { status: 200, body: profileOf(BEN) };
      if (path === '/api/users/2/followers')
        return failing
          ? { status: 503, body: { message: 'Unavailable' } }
          : { status: 200, body: [row(ADA)] };
      return undefined;
    });
    renderList('followers', '/profile/2/followers');
    expect(
      await screen.findByRole('heading', { name: 'Failed to fetch followers', level: 2 }),
    ).toBeInTheDocument();
    expect(screen.queryByText('Ben Larsen has no followers yet.')).not.toBeInTheDocument();
    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('article', { name: 'Ada Okafor' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });
});
