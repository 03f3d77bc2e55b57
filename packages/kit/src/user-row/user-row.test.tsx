import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { configureApi, storeAuth } from '@campus/kit/api';
import { mockApi } from '@campus/kit/testing';
import { DataProvider } from '@campus/kit/data';
import { SessionProvider } from '@campus/kit/session';
import { KitThemeProvider } from '@campus/kit/theme';
import { UserRow } from '@campus/kit/user-row';

const ben = {
  id: 2,
  name: 'Ben Larsen',
  email: 'ben.larsen@campus.edu',
  bio: 'Chemistry, year 3',
  avatarUrl: null,
  isFollowing: true,
};

function renderRows() {
  return render(
    <KitThemeProvider>
      <DataProvider>
        <SessionProvider>
          <MemoryRouter>
            <UserRow user={ben} />
            <UserRow user={{ ...ben, id: 1, name: 'Ada Okafor', isFollowing: false }} />
          </MemoryRouter>
        </SessionProvider>
      </DataProvider>
    </KitThemeProvider>,
  );
}

beforeEach(() => {
  configureApi({ baseUrl: 'http://api.test' });
  storeAuth({ user: { id: 1, name: 'Ada', email: 'ada@campus.edu', avatarUrl: null } });
  mockApi();
});

describe('UserRow', () => {
  it('shows avatar, linked name, handle, bio and a follow button', async () => {
    renderRows();
    const row = await screen.findByRole('article', { name: 'Ben Larsen' });
    expect(row).toHaveTextContent('@ben.larsen');
    expect(row).toHaveTextContent('Chemistry, year 3');
    expect(screen.getByRole('link', { name: 'Ben Larsen' })).toHaveAttribute('href', '/profile/2');
    await waitFor(() => expect(row.querySelector('button')).toHaveTextContent('Following'));
    // named after the person, so a list is not ten buttons called 'Follow' (issue 41)
    expect(screen.getByRole('button', { name: 'Following Ben Larsen' })).toBeInTheDocument();
  });

  it("hides the follow button on the viewer's own row", async () => {
    renderRows();
    await waitFor(() => expect(screen.getAllByRole('button')).toHaveLength(1));
    expect(screen.getByRole('article', { name: 'Ada Okafor' }).querySelector('button')).toBeNull();
  });
});
