import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { configureApi, storeAuth } from '@campus/kit/api';
import { DataProvider, keys, useCallData } from '@campus/kit/data';
import { FollowButton } from '@campus/kit/follow-button';
import { SessionProvider } from '@campus/kit/session';
import { KitThemeProvider } from '@campus/kit/theme';
import { Toaster, dismissToast } from '@campus/kit/toast';
import { mockApi, type ApiReply } from '@campus/kit/testing';

/** Answers `'METHOD /path'` from `routes`; Ada's session check succeeds; the rest is a 404. */
function serve(routes: Record<string, ApiReply>) {
  return mockApi(({ method, path }) => routes[`${method} ${path}`]);
}

function Providers({ children }: { children: ReactNode }) {
  return (
    <KitThemeProvider>
      <DataProvider>
        <SessionProvider>
          {children}
          <Toaster />
        </SessionProvider>
      </DataProvider>
    </KitThemeProvider>
  );
}

function ProfileReader() {
  const { data } = useCallData(keys.user(9));
  return <p>followers: {data?.followersCount ?? '-'}</p>;
}

beforeEach(() => {
  configureApi({ baseUrl: 'http://api.test' });
  storeAuth({ user: { id: 1, name: 'Ada', email: 'ada@campus.edu', avatarUrl: null } });
  act(() => dismissToast());
});

afterEach(() => window.localStorage.clear());

describe('FollowButton', () => {
  it('follows, announces success and refetches the cached profile', async () => {
    let followers = 3;
    mockApi(({ method, path }) => {
      if (`${method} ${path}` === 'POST /api/users/9/follow')
        return { status: 200, body: { following: true, followersCount: ++followers } };
      if (`${method} ${path}` === 'GET /api/users/9')
        return { status: 200, body: { followersCount: followers } };
      return undefined;
    });
    const onToggled = jest.fn();
    render(
      <Providers>
        <ProfileReader />
        <FollowButton userId={9} isFollowing={false} onToggled={onToggled} />
      </Providers>,
    );
    expect(await screen.findByText('followers: 3')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Follow' }));
    expect(await screen.findByRole('status')).toHaveTextContent('SuccessFollow status updated!');
    expect(await screen.findByText('followers: 4')).toBeInTheDocument();
    expect(onToggled).toHaveBeenCalledWith({ following: true, followersCount: 4 });
  });

  it("reads 'Following' and turns into 'Unfollow' on hover", async () => {
    serve({});
    render(
      <Providers>
        <FollowButton userId={9} isFollowing />
      </Providers>,
    );
    const button = screen.getByRole('button', { name: 'Following' });
    await userEvent.hover(button);
    expect(button).toHaveTextContent('Unfollow');
    await userEvent.unhover(button);
    expect(button).toHaveTextContent('Following');
  });

  it("right after Follow it reads 'Following' under the pointer; Unfollow only once the pointer has left (issue 41)", async () => {
    let following = false;
    mockApi(({ method, path }) =>
      `${method} ${path}` === 'POST /api/users/9/follow'
        ? { status: 200, body: { following: (following = !following), followersCount: 1 } }
        : undefined,
    );
    function Profile() {
      const [isFollowing, setFollowing] = useState(false);
      return (
        <FollowButton
          userId={9}
          name="Ada Lovelace"
          isFollowing={isFollowing}
          onToggled={(result) => setFollowing(result.following)}
        />
      );
    }
    render(
      <Providers>
        <Profile />
      </Providers>,
    );
    const button = screen.getByRole('button', { name: 'Follow Ada Lovelace' });
    await userEvent.hover(button);
    await userEvent.click(button);
    expect(await screen.findByRole('button', { name: 'Following Ada Lovelace' })).toBe(button);
    expect(button).toHaveAttribute('data-following', 'true');
    // still under the pointer: no red Unfollow
    await userEvent.hover(button);
    expect(button).toHaveTextContent('Following');
    await userEvent.unhover(button);
    await userEvent.hover(button);
    expect(button).toHaveTextContent('Unfollow');
    expect(button).toHaveAccessibleName('Unfollow Ada Lovelace');
  });

  it('right after following from the keyboard, focus offers Unfollow only once it left and came back (issue 41)', async () => {
    let following = false;
    mockApi(({ method, path }) =>
      `${method} ${path}` === 'POST /api/users/9/follow'
        ? { status: 200, body: { following: (following = !following), followersCount: 1 } }
        : undefined,
    );
    render(
      <Providers>
        <FollowButton userId={9} name="Ada Lovelace" isFollowing={false} />
        <button type="button">elsewhere</button>
      </Providers>,
    );
    await userEvent.tab();
    const button = screen.getByRole('button', { name: 'Follow Ada Lovelace' });
    expect(button).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    // the server's answer shows at once, before any list passes it back
    expect(await screen.findByRole('button', { name: 'Following Ada Lovelace' })).toHaveFocus();
    await userEvent.tab();
    await userEvent.tab({ shift: true });
    expect(button).toHaveFocus();
    expect(button).toHaveTextContent('Unfollow');
  });

  it("shows the API's limit message when the member follows too fast (429)", async () => {
    const message =
      'Too many follows: you can make at most 30 follows per minute. Please try again in 9 seconds.';
    serve({ 'POST /api/users/9/follow': { status: 429, body: { message } } });
    render(
      <Providers>
        <FollowButton userId={9} isFollowing={false} />
      </Providers>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Follow' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(message));
  });

  it('shows the destructive toast when the toggle fails', async () => {
    serve({ 'POST /api/users/9/follow': { status: 500, body: { message: 'boom' } } });
    render(
      <Providers>
        <FollowButton userId={9} isFollowing={false} />
      </Providers>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Follow' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('ErrorFailed to update follow status.'),
    );
    expect(screen.getByRole('button', { name: 'Follow' })).toBeEnabled();
  });
});
