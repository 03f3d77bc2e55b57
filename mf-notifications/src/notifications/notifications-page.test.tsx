import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type {
  Notification,
  NotificationGroup,
  NotificationGroupPage,
  NotificationOf,
} from '@campus/contracts';
import { callsTo, mockApi, renderPage, type ApiCall, type ApiReply } from '@campus/kit/testing';
import { useUnreadCount } from '@campus/kit/stream';
import { dismissToast } from '@campus/kit/toast';
import NotificationsPage from './notifications-page';

const me = { id: 3, name: 'Cleo', email: 'cleo@campus.edu', avatarUrl: null };
const ada = { id: 4, name: 'Ada Okafor', avatarUrl: null };
const ben = { id: 2, name: 'Ben Larsen', avatarUrl: null };
const at = new Date().toISOString();

const like = (id: number, actor = ada): Notification => ({
  id,
  type: 'like',
  isRead: false,
  createdAt: at,
  actor,
  post: { id: 7, content: 'p'.repeat(120) },
});

function groupOf(latest: Notification, ids: number[], actors = [ada], actorsCount = actors.length) {
  const key =
    latest.type === 'like' && latest.post
      ? `like:${latest.post.id}`
      : `${latest.type}#${latest.id}`;
  return {
    key,
    type: latest.type,
    latest,
    actors,
    actorsCount,
    ids,
    isRead: latest.isRead,
    createdAt: latest.createdAt,
  } satisfies NotificationGroup;
}

/** Four members liked post 7 (ids 10..13), Ben commented, Ben followed (read). */
function sampleGroups(): NotificationGroup[] {
  return [
    groupOf(like(13), [13, 12, 11, 10], [ada, ben, { id: 6, name: 'Chi', avatarUrl: null }], 4),
    groupOf(
      {
        id: 9,
        type: 'comment',
        isRead: false,
        createdAt: at,
        actor: ben,
        post: { id: 8, content: 'The post itself' },
        commentText: 'What a great idea',
        commentId: 31,
      },
      [9],
      [ben],
    ),
    groupOf({ id: 5, type: 'follow', isRead: true, createdAt: at, actor: ben }, [5], [ben]),
  ];
}

/** The plain list the shell's badge reads while the stream is down: 5 unread. */
const plainList = (): Notification[] => [13, 12, 11, 10, 9].map((id) => like(id));

function serve(
  handler: (call: ApiCall) => ApiReply | undefined | Promise<ApiReply | undefined> = () =>
    undefined,
  pages: NotificationGroupPage[] = [{ groups: sampleGroups(), nextCursor: null }],
) {
  return mockApi(async (call) => {
    const answer = await handler(call);
    if (answer) return answer;
    if (call.method === 'GET' && call.pathname === '/api/notifications') {
      if (call.url.searchParams.get('grouped') !== 'true')
        return { status: 200, body: plainList() };
      const before = call.url.searchParams.get('before');
      return { status: 200, body: before ? pages[1] : pages[0] };
    }
    return undefined;
  });
}

/** Stands in for the shell's sidebar badge: the same kit hook. */
function ShellBadge() {
  return <output aria-label="shell badge">{useUnreadCount()}</output>;
}

function renderNotifications() {
  return renderPage(
    <>
      <ShellBadge />
      <NotificationsPage />
    </>,
    // on every route, so the stand-in badge stays after a row opened a post
    { path: '/notifications', signedInAs: me },
  );
}

beforeEach(() => {
  window.localStorage.clear();
  act(() => dismissToast());
});

describe('NotificationsPage', () => {
  it('shows 5 skeleton rows while loading, then the empty state', async () => {
    let answer: (value: ApiReply) => void = () => undefined;
    serve(({ url }) =>
      url.searchParams.get('grouped') === 'true'
        ? new Promise((resolve) => (answer = resolve))
        : undefined,
    );
    renderNotifications();
    expect(await screen.findAllByTestId('notification-skeleton')).toHaveLength(5);
    await act(async () => answer({ status: 200, body: { groups: [], nextCursor: null } }));
    expect(await screen.findByText('No notifications yet')).toBeInTheDocument();
    expect(
      screen.getByText("You'll see notifications here when others interact with your posts."),
    ).toBeInTheDocument();
  });

  it('offers Retry when the notifications fail to load, and shows them once they load (issue 41)', async () => {
    let failing = true;
    serve(({ method, pathname, url }) =>
      failing &&
      method === 'GET' &&
      pathname === '/api/notifications' &&
      url.searchParams.get('grouped') === 'true'
        ? { status: 503, body: { message: 'down' } }
        : undefined,
    );
    renderNotifications();
    expect(await screen.findByText('Failed to fetch notifications')).toBeInTheDocument();
    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(
      await screen.findByRole('link', { name: 'Ada Okafor and 3 others liked your post (unread)' }),
    ).toBeInTheDocument();
    expect(screen.queryByText('Failed to fetch notifications')).not.toBeInTheDocument();
  });

  it('groups likes of one post in one row with their avatars, and quotes what a comment said', async () => {
    serve();
    renderNotifications();
    const likes = await screen.findByRole('link', {
      name: 'Ada Okafor and 3 others liked your post (unread)',
    });
    expect(likes).toHaveAttribute('href', '/post/7');
    expect(within(likes).getByText(`${'p'.repeat(100)}...`)).toBeInTheDocument();
    // the three named actors' avatars (initials as the fallback)
    expect(within(likes).getByText('AO')).toBeInTheDocument();
    expect(within(likes).getByText('BL')).toBeInTheDocument();

    const comment = screen.getByRole('link', {
      name: 'Ben Larsen commented on your post (unread)',
    });
    // it opens the post at the comment (issue 41)
    expect(comment).toHaveAttribute('href', '/post/8#comment-31');
    expect(within(comment).getByText('What a great idea')).toBeInTheDocument();
    expect(within(comment).queryByText('The post itself')).not.toBeInTheDocument();

    expect(screen.getByRole('link', { name: 'Ben Larsen started following you' })).toHaveAttribute(
      'href',
      '/profile/2',
    );
  });

  it('shows a mention in a post and one in a comment, each opening the post (issue 40)', async () => {
    const mention = (id: number, fields: Partial<NotificationOf<'mention'>>) =>
      ({
        id,
        type: 'mention',
        isRead: false,
        createdAt: at,
        actor: ada,
        post: { id: 21, content: 'Thanks @Cleo for the notes' },
        commentText: null,
        commentId: null,
        ...fields,
      }) satisfies Notification;
    serve(undefined, [
      {
        groups: [
          groupOf(mention(40, {}), [40]),
          groupOf(
            mention(41, {
              actor: ben,
              post: { id: 22, content: 'Exam schedule' },
              commentText: '@Cleo do you have it?',
              commentId: 77,
            }),
            [41],
            [ben],
          ),
        ],
        nextCursor: null,
      },
    ]);
    renderNotifications();
    const inPost = await screen.findByRole('link', {
      name: 'Ada Okafor mentioned you in a post (unread)',
    });
    expect(inPost).toHaveAttribute('href', '/post/21');
    expect(inPost).toHaveAccessibleDescription('Thanks @Cleo for the notes');
    const inComment = screen.getByRole('link', {
      name: 'Ben Larsen mentioned you in a comment (unread)',
    });
    expect(inComment).toHaveAttribute('href', '/post/22#comment-77');
    expect(within(inComment).getByText('@Cleo do you have it?')).toBeInTheDocument();
    expect(within(inComment).queryByText('Exam schedule')).not.toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'View post' })).toHaveLength(2);
  });

  it('opens what a row is about and marks its whole group read; the badge follows', async () => {
    const fetchMock = serve(({ method, pathname }) =>
      method === 'PUT' && pathname === '/api/notifications/read'
        ? { status: 200, body: { updated: 4 } }
        : undefined,
    );
    renderNotifications();
    await waitFor(() => expect(screen.getByLabelText('shell badge')).toHaveTextContent('5'));
    await userEvent.click(
      await screen.findByRole('link', { name: 'Ada Okafor and 3 others liked your post (unread)' }),
    );
    expect(screen.getByTestId('location')).toHaveTextContent('/post/7');
    await waitFor(() =>
      expect(callsTo(fetchMock, '/api/notifications/read', 'PUT')).toHaveLength(1),
    );
    const [call] = callsTo(fetchMock, '/api/notifications/read', 'PUT');
    expect(JSON.parse(String(call?.init.body))).toEqual({ keys: ['like:7'] });
    // the four likes are read in the shared list: the badge drops from 5 to 1 at once
    expect(screen.getByLabelText('shell badge')).toHaveTextContent('1');
  });

  it("'View post' marks the row read too", async () => {
    const fetchMock = serve(({ method }) =>
      method === 'PUT' ? { status: 200, body: { updated: 1 } } : undefined,
    );
    renderNotifications();
    const [viewPost] = await screen.findAllByRole('link', { name: 'View post' });
    await userEvent.click(viewPost as HTMLElement);
    expect(screen.getByTestId('location')).toHaveTextContent('/post/7');
    await waitFor(() =>
      expect(callsTo(fetchMock, '/api/notifications/read', 'PUT')).toHaveLength(1),
    );
  });

  it('a row with nowhere to go (a reply to feedback) only marks it read', async () => {
    const reply: Notification = {
      id: 30,
      type: 'feedback_reply',
      isRead: false,
      createdAt: at,
      actor: { id: 107, name: 'Campus Admin', avatarUrl: null },
      feedback: { message: 'Dark mode please' },
      reply: 'It is on our list!',
    };
    const fetchMock = serve(
      ({ method }) => (method === 'PUT' ? { status: 200, body: { updated: 1 } } : undefined),
      [
        {
          groups: [groupOf(reply, [30], [{ id: 107, name: 'Campus Admin', avatarUrl: null }])],
          nextCursor: null,
        },
      ],
    );
    renderNotifications();
    const row = await screen.findByRole('button', {
      name: 'Campus Admin replied to your feedback (unread)',
    });
    expect(within(row).getByText('It is on our list!')).toBeInTheDocument();
    await userEvent.click(row);
    expect(
      await screen.findByRole('button', { name: 'Campus Admin replied to your feedback' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/notifications');
    const [call] = callsTo(fetchMock, '/api/notifications/read', 'PUT');
    expect(JSON.parse(String(call?.init.body))).toEqual({ keys: ['feedback_reply#30'] });
  });

  it('a removal shows its reason and offers one appeal, sent in a few sentences (issue 38)', async () => {
    const removed: Notification = {
      id: 40,
      type: 'content_removed',
      isRead: true,
      createdAt: at,
      actor: null,
      targetType: 'post',
      content: 'A misunderstood joke',
      decisionId: 12,
      reason: { category: 'harassment', text: 'Mocks a classmate' },
    };
    const fetchMock = serve(
      ({ method, pathname }) =>
        method === 'POST' && pathname === '/api/appeals'
          ? {
              status: 201,
              body: { id: 1, decisionId: 12, status: 'pending', createdAt: at, decidedAt: null },
            }
          : undefined,
      [{ groups: [groupOf(removed, [40], [])], nextCursor: null }],
    );
    renderNotifications();
    const row = await screen.findByRole('button', {
      name: 'Campus removed your post after reports',
    });
    expect(
      within(row).getByText('Reason: Harassment or bullying. Mocks a classmate'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Appeal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Appeal the removal of your post' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send appeal' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Appeal is required');
    expect(callsTo(fetchMock, '/api/appeals', 'POST')).toHaveLength(0);
    await userEvent.type(
      within(dialog).getByLabelText('Your appeal'),
      'It was a joke between friends.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send appeal' }));
    expect(
      await screen.findByText('Appeal sent. The Campus team will review it.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Appeal' })).not.toBeInTheDocument();
    const [call] = callsTo(fetchMock, '/api/appeals', 'POST');
    expect(JSON.parse(String(call?.init.body))).toEqual({
      decisionId: 12,
      text: 'It was a joke between friends.',
    });
  });

  it('a removal the member appealed before offers no second appeal (issue 38)', async () => {
    const removed: Notification = {
      id: 41,
      type: 'content_removed',
      isRead: true,
      createdAt: at,
      actor: null,
      targetType: 'comment',
      content: 'Heated words',
      decisionId: 13,
      reason: { category: 'hate', text: null },
      appealed: true,
    };
    serve(() => undefined, [{ groups: [groupOf(removed, [41], [])], nextCursor: null }]);
    renderNotifications();
    await screen.findByRole('button', { name: 'Campus removed your comment after reports' });
    expect(screen.getByText('You appealed this decision.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Appeal' })).not.toBeInTheDocument();
  });

  it('puts the unread state back when marking read fails', async () => {
    const fetchMock = serve(({ method }) =>
      method === 'PUT' ? { status: 500, body: {} } : undefined,
    );
    renderNotifications();
    const row = await screen.findByRole('link', {
      name: 'Ben Larsen commented on your post (unread)',
    });
    const reads = () => callsTo(fetchMock, '/api/notifications').length;
    const before = reads();
    await userEvent.click(row);
    // the server did not take it: what it holds (still unread) is fetched again, list and groups
    await waitFor(() => expect(reads()).toBeGreaterThanOrEqual(before + 2));
    expect(
      await screen.findByRole('link', { name: 'Ben Larsen commented on your post (unread)' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('shell badge')).toHaveTextContent('5');
  });

  it("'Mark all read' reads everything, then hides itself and the badge", async () => {
    serve(({ method, pathname }) =>
      method === 'PUT' && pathname === '/api/notifications/read-all'
        ? { status: 200, body: { updated: 5 } }
        : undefined,
    );
    renderNotifications();
    await userEvent.click(await screen.findByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(screen.getByLabelText('shell badge')).toHaveTextContent('0'));
    expect(screen.queryByRole('button', { name: 'Mark all read' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('page-unread-badge')).not.toBeInTheDocument();
    expect(screen.queryAllByTestId('unread-marker')).toHaveLength(0);
  });

  it("says so when 'Mark all read' fails", async () => {
    serve(({ method }) => (method === 'PUT' ? { status: 500, body: { message: 'x' } } : undefined));
    renderNotifications();
    await userEvent.click(await screen.findByRole('button', { name: 'Mark all read' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to mark notifications as read.',
    );
    expect(screen.getByLabelText('shell badge')).toHaveTextContent('5');
  });

  it('pages over groups with the cursor of the previous page', async () => {
    const older = groupOf({ id: 2, type: 'follow', isRead: true, createdAt: at, actor: ada }, [2]);
    const fetchMock = serve(undefined, [
      { groups: sampleGroups(), nextCursor: 5 },
      { groups: [older], nextCursor: null },
    ]);
    renderNotifications();
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(
      await screen.findByRole('link', { name: 'Ada Okafor started following you' }),
    ).toBeInTheDocument();
    const pages = callsTo(fetchMock, '/api/notifications').map(({ url }) => url.search);
    expect(pages).toContain('?grouped=true&before=5');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });
});
