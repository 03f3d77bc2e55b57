import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import type { Notification } from '@campus/contracts';
import { configureApi } from '@campus/kit/api';
import { mockApi, TEST_API_URL, type ApiReply } from '@campus/kit/testing';
import { DataProvider, unreadCount, useNotifications } from '@campus/kit/data';
import { KitThemeProvider } from '@campus/kit/theme';
import { Toaster, dismissToast } from '@campus/kit/toast';
import NotificationsPage from './notifications-page';

const ben = { id: 2, name: 'Ben Larsen', avatarUrl: null };
const at = new Date().toISOString();

function sample(): Notification[] {
  return [
    {
      id: 1,
      type: 'like',
      isRead: false,
      createdAt: at,
      actor: ben,
      post: { id: 7, content: 'p'.repeat(120) },
    },
    { id: 2, type: 'follow', isRead: false, createdAt: at, actor: ben },
    {
      id: 3,
      type: 'comment',
      isRead: true,
      createdAt: at,
      actor: ben,
      post: { id: 7, content: 'Nice' },
    },
  ];
}

/** The fake API: `handler` answers by method and path (without the API origin). */
function serve(handler: (method: string, path: string) => ApiReply | Promise<ApiReply>) {
  return mockApi(({ method, path }) => handler(method, path));
}

/** Stands in for the shell's sidebar badge: it reads the same shared cache entry. */
function ShellBadge() {
  const { data } = useNotifications();
  return <output aria-label="shell badge">{unreadCount(data)}</output>;
}

function renderPage() {
  return render(
    <KitThemeProvider>
      <DataProvider>
        <MemoryRouter>
          <ShellBadge />
          <NotificationsPage />
        </MemoryRouter>
        <Toaster />
      </DataProvider>
    </KitThemeProvider>,
  );
}

beforeEach(() => {
  configureApi({ baseUrl: TEST_API_URL });
  act(() => dismissToast());
});

describe('NotificationsPage', () => {
  it('shows 5 skeleton rows while loading', async () => {
    let answer: (value: { status: number; body: unknown }) => void = () => undefined;
    serve(() => new Promise((resolve) => (answer = resolve)));
    renderPage();
    expect(screen.getAllByTestId('notification-skeleton')).toHaveLength(5);
    await act(async () => answer({ status: 200, body: [] }));
    expect(await screen.findByText('No notifications yet')).toBeInTheDocument();
    expect(
      screen.getByText("You'll see notifications here when others interact with your posts."),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark all read' })).not.toBeInTheDocument();
  });

  it('renders each type with its preview cut to 100 characters', async () => {
    serve(() => ({ status: 200, body: sample() }));
    renderPage();
    expect(
      await screen.findByRole('button', { name: 'Ben Larsen liked your post (unread)' }),
    ).toBeInTheDocument();
    expect(screen.getByText(`${'p'.repeat(100)}...`)).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Ben Larsen started following you (unread)' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Ben Larsen commented on your post' }),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'View post' })[0]).toHaveAttribute(
      'href',
      '/post/7',
    );
  });

  it('marks a clicked unread item read and the shell badge follows at once', async () => {
    const fetchMock = serve((method) =>
      method === 'PUT'
        ? { status: 200, body: { id: 1, isRead: true } }
        : { status: 200, body: sample() },
    );
    renderPage();
    const heading = await screen.findByRole('heading', { name: /Notifications/ });
    await waitFor(() => expect(within(heading).getByText('2')).toBeInTheDocument());
    expect(screen.getByLabelText('shell badge')).toHaveTextContent('2');

    await userEvent.click(
      screen.getByRole('button', { name: 'Ben Larsen liked your post (unread)' }),
    );
    expect(screen.getByRole('button', { name: 'Ben Larsen liked your post' })).toBeInTheDocument();
    expect(screen.getByLabelText('shell badge')).toHaveTextContent('1');
    expect(fetchMock).toHaveBeenCalledWith(
      'http://api.test/api/notifications/1/read',
      expect.objectContaining({ method: 'PUT' }),
    );

    // a read item does nothing when clicked
    fetchMock.mockClear();
    await userEvent.click(screen.getByRole('button', { name: 'Ben Larsen liked your post' }));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("'Mark all read' reads everything, then hides itself and the badge", async () => {
    serve((method, path) =>
      method === 'PUT' && path === '/api/notifications/read-all'
        ? { status: 200, body: { updated: 2 } }
        : { status: 200, body: sample() },
    );
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(screen.getByLabelText('shell badge')).toHaveTextContent('0'));
    expect(screen.queryByRole('button', { name: 'Mark all read' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('page-unread-badge')).not.toBeInTheDocument();
  });

  it("says so when 'Mark all read' fails", async () => {
    serve((method) =>
      method === 'PUT' ? { status: 500, body: { message: 'x' } } : { status: 200, body: sample() },
    );
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Mark all read' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to mark notifications as read.',
    );
    expect(screen.getByLabelText('shell badge')).toHaveTextContent('2');
  });

  it('restores the unread state when marking one read fails', async () => {
    serve((method) =>
      method === 'PUT' ? { status: 500, body: {} } : { status: 200, body: sample() },
    );
    renderPage();
    await userEvent.click(
      await screen.findByRole('button', { name: 'Ben Larsen liked your post (unread)' }),
    );
    expect(
      await screen.findByRole('button', { name: 'Ben Larsen liked your post (unread)' }),
    ).toBeInTheDocument();
  });
});
