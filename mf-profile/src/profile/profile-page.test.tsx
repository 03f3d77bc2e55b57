import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { emitAppEvent } from '@campus/kit/events';
import { dismissToast } from '@campus/kit/toast';
import { ADA, BEN, callsTo, profileOf, renderPage, mockApi } from '@campus/kit/testing';
import ProfilePage from './profile-page';

const post = {
  id: 70,
  content: 'Library is open late this week',
  createdAt: new Date().toISOString(),
  isJdTagged: false,
  likesCount: 2,
  repostsCount: 0,
  commentsCount: 1,
  isLiked: false,
  isReposted: false,
  author: BEN,
  originalPostId: null,
  originalPost: null,
  repostComment: null,
};

const renderProfile = (path: string) =>
  renderPage(<ProfilePage />, { path, route: '/profile/:id?', signedInAs: ADA });

beforeEach(() => act(() => dismissToast()));
afterEach(() => window.localStorage.clear());

describe('ProfilePage', () => {
  it('shows the own profile without an id, with logout, Edit Profile and Feedback', async () => {
    mockApi(({ method, path }) =>
      method === 'GET' && path === '/api/users/1'
        ? {
            status: 200,
            body: profileOf(ADA, { bio: 'Physics, year 2', followingCount: 4, followersCount: 7 }),
          }
        : undefined,
    );
    renderProfile('/profile');
    expect(
      await screen.findByRole('heading', { name: 'Ada Okafor', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByText('@ada.okafor')).toBeInTheDocument();
    expect(screen.getByText('Physics, year 2')).toBeInTheDocument();
    expect(screen.getByText(/^Joined/)).toHaveTextContent('Joined 3 months ago');
    expect(screen.getByRole('link', { name: /4\s*Following/ })).toHaveAttribute(
      'href',
      '/profile/1/following',
    );
    expect(screen.getByRole('link', { name: /7\s*Followers/ })).toHaveAttribute(
      'href',
      '/profile/1/followers',
    );
    expect(
      screen.getByText('Share your first thought with the campus community!'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Feedback' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Follow' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Edit Profile' }));
    expect(screen.getByLabelText('location')).toHaveTextContent('/profile/1/edit');
  });

  it("shows someone else's profile with Back, Follow and their posts on the kit card", async () => {
    let following = false;
    mockApi(({ method, path }) => {
      if (method === 'GET' && path === '/api/users/2')
        return {
          status: 200,
          body: profileOf(BEN, {
            isFollowing: following,
            followersCount: following ? 1 : 0,
            posts: [post],
          }),
        };
      if (method === 'POST' && path === '/api/users/2/follow') {
        following = !following;
        return { status: 200, body: { following, followersCount: following ? 1 : 0 } };
      }
      return undefined;
    });
    renderProfile('/profile/2');
    expect(
      await screen.findByRole('heading', { name: 'Ben Larsen', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '← Back' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Post by Ben Larsen' })).toHaveTextContent(
      'Library is open late this week',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Follow Ben Larsen' }));
    expect(await screen.findByText('Follow status updated!')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: /1\s*Followers/ })).toBeInTheDocument();
    const button = screen.getByRole('button', { name: /^(Following|Unfollow) Ben Larsen$/ });
    await userEvent.unhover(button);
    act(() => button.blur()); // jsdom counts a click's focus as keyboard focus
    expect(button).toHaveTextContent('Following');
    await userEvent.hover(button);
    expect(button).toHaveTextContent('Unfollow');
  });

  it('says when someone else has not posted, and goes home from Back without history', async () => {
    mockApi(({ path }) =>
      path === '/api/users/2' ? { status: 200, body: profileOf(BEN) } : undefined,
    );
    renderProfile('/profile/2');
    expect(await screen.findByText("Ben Larsen hasn't posted anything yet.")).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '← Back' }));
    expect(screen.getByLabelText('location')).toHaveTextContent(/^\/$/);
  });

  it('shows User not found for a missing profile without an error toast on top', async () => {
    const fetchMock = mockApi(({ path }) =>
      path === '/api/users/99' ? { status: 404, body: { message: 'User not found' } } : undefined,
    );
    renderProfile('/profile/99');
    expect(await screen.findByText("This user profile doesn't exist.")).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'User not found' })).toBeInTheDocument();
    // the API said there is no such user: nothing to retry
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/api/users/99'))).toBe(true);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows User not found after Failed to fetch profile when the API fails', async () => {
    mockApi(({ path }) =>
      path === '/api/users/99' ? { status: 500, body: { message: 'Internal error' } } : undefined,
    );
    renderProfile('/profile/99');
    expect(await screen.findByText("This user profile doesn't exist.")).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch profile');
  });

  it('offers Retry on the User not found view after a failure to load, and shows the profile once it loads (issue 41)', async () => {
    let failing = true;
    mockApi(({ path }) =>
      path === '/api/users/2'
        ? failing
          ? { status: 503, body: { message: 'Unavailable' } }
          : { status: 200, body: profileOf(BEN) }
        : undefined,
    );
    renderProfile('/profile/2');
    expect(await screen.findByRole('heading', { name: 'User not found' })).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch profile');
    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(
      await screen.findByRole('heading', { name: 'Ben Larsen', level: 1 }),
    ).toBeInTheDocument();
  });

  it('shows User not found for an id that is not a number', async () => {
    mockApi(() => undefined);
    renderProfile('/profile/abc');
    expect(await screen.findByRole('heading', { name: 'User not found' })).toBeInTheDocument();
  });

  it('scrolls to the top from the sticky name and refetches on profileChanged', async () => {
    let name = 'Ada Okafor';
    mockApi(({ method, path }) =>
      method === 'GET' && path === '/api/users/1'
        ? { status: 200, body: profileOf({ ...ADA, name }) }
        : undefined,
    );
    const scrollTo = jest.fn();
    window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
    renderProfile('/profile/1');
    await userEvent.click(await screen.findByRole('button', { name: 'Ada Okafor, scroll to top' }));
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });

    name = 'Ada O.';
    act(() => emitAppEvent('profileChanged', { userId: 1 }));
    expect(await screen.findByRole('heading', { name: 'Ada O.', level: 1 })).toBeInTheDocument();
  });

  it('asks for the profile again when the page is shown again at once (never cached)', async () => {
    let name = 'Ada Okafor';
    const fetchMock = mockApi(({ method, path }) =>
      method === 'GET' && path === '/api/users/1'
        ? { status: 200, body: profileOf({ ...ADA, name }) }
        : undefined,
    );
    function ShownOrNot() {
      const [shown, setShown] = useState(true);
      return (
        <>
          <button type="button" onClick={() => setShown(!shown)}>
            toggle
          </button>
          {shown && <ProfilePage />}
        </>
      );
    }
    renderPage(<ShownOrNot />, { path: '/profile/1', route: '/profile/:id?', signedInAs: ADA });
    expect(
      await screen.findByRole('heading', { name: 'Ada Okafor', level: 1 }),
    ).toBeInTheDocument();
    name = 'Ada O.';
    // Well within SWR's default dedupe window of the first answer.
    await userEvent.click(screen.getByRole('button', { name: 'toggle' }));
    await userEvent.click(screen.getByRole('button', { name: 'toggle' }));
    expect(await screen.findByRole('heading', { name: 'Ada O.', level: 1 })).toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/users/1')).toHaveLength(2);
  });

  it('opens the feedback dialog from the own profile', async () => {
    mockApi(({ method, path }) =>
      method === 'GET' && path === '/api/users/1'
        ? { status: 200, body: profileOf(ADA) }
        : undefined,
    );
    renderProfile('/profile');
    await userEvent.click(await screen.findByRole('button', { name: 'Feedback' }));
    const dialog = screen.getByRole('dialog', { name: 'Send Feedback' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
  it('when someone else is an invited alum, then their profile shows the Alumni badge and a Report user menu', async () => {
    const fetchMock = mockApi(({ method, path }) => {
      if (method === 'GET' && path === '/api/users/2')
        return { status: 200, body: { ...profileOf(BEN), affiliation: 'alumni' } };
      if (method === 'POST' && path === '/api/reports')
        return {
          status: 201,
          body: { id: 1, targetType: 'user', targetId: 2, createdAt: new Date().toISOString() },
        };
      return undefined;
    });
    renderProfile('/profile/2');
    expect(await screen.findByText('Alumni')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'More actions for Ben Larsen' }));
    // Issue 38: Mute and Block come first, then Report user.
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Mute Ben Larsen',
      'Block Ben Larsen',
      'Report user',
    ]);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Report user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report user' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Impersonation' }));
    await userEvent.type(
      within(dialog).getByLabelText('Details (optional)'),
      'Impersonating a professor',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await screen.findByText('Report sent')).toBeInTheDocument();
    const report = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/api/reports'));
    expect(JSON.parse(String((report![1] as RequestInit).body))).toEqual({
      targetType: 'user',
      targetId: 2,
      category: 'impersonation',
      reason: 'Impersonating a professor',
    });
  });

  it('when it is the own profile, then there is neither an Alumni badge for a student nor a report menu', async () => {
    mockApi(({ method, path }) =>
      method === 'GET' && path === '/api/users/1'
        ? { status: 200, body: profileOf(ADA) }
        : undefined,
    );
    renderProfile('/profile/1');
    expect(await screen.findByRole('button', { name: 'Edit Profile' })).toBeInTheDocument();
    expect(screen.queryByText('Alumni')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^More actions/ })).not.toBeInTheDocument();
  });
});
