import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Comment, PostDetail } from '@campus/contracts';
import { clearStoredAuth } from '@campus/kit/api';
import { onAppEvent } from '@campus/kit/events';
import { dismissToast } from '@campus/kit/toast';
import { ADA, BEN, callsTo, makePost, mockApi, renderPage, signIn } from '@campus/kit/testing';
import PostDetailPage from './post-detail-page';

function comment(overrides: Partial<Comment> = {}): Comment {
  return {
    id: 50,
    content: 'See you there',
    createdAt: new Date().toISOString(),
    author: BEN,
    likesCount: 0,
    isLiked: false,
    replies: [],
    ...overrides,
  };
}

function detail(overrides: Partial<PostDetail> = {}): PostDetail {
  return {
    ...makePost({
      id: 10,
      author: ADA,
      content: 'Hackathon this weekend',
      isJdTagged: true,
      likesCount: 2,
      commentsCount: 2,
      repostsCount: 1,
      canDelete: true,
    }),
    comments: [
      comment({
        replies: [comment({ id: 51, author: ADA, content: 'Great!', likesCount: 1 })],
      }),
    ],
    ...overrides,
  };
}

function withoutOriginal({ originalPost: _none, ...post }: ReturnType<typeof makePost>) {
  return post;
}

const openAt = (path = '/post/10', entries?: string[]) =>
  renderPage(<PostDetailPage />, { route: '/post/:id', path, entries });

beforeEach(() => {
  signIn(ADA);
  act(() => dismissToast());
});
afterEach(() => clearStoredAuth());

describe('PostDetailPage', () => {
  it('shows a skeleton, then the post with its counts, buttons and comments', async () => {
    mockApi(() => ({ status: 200, body: detail() }));
    openAt();
    expect(screen.getByLabelText('Loading post')).toHaveAttribute('aria-busy', 'true');
    const page = await screen.findByRole('article', { name: 'Post by Ada Okafor' });
    expect(within(page).getAllByRole('link', { name: 'Ada Okafor' })[0]).toHaveAttribute(
      'href',
      '/profile/1',
    );
    expect(page).toHaveTextContent('Hackathon this weekend');
    expect(within(page).getByText('JD')).toBeInTheDocument();
    expect(page).toHaveTextContent('just now');
    expect(page).toHaveTextContent('2 likes');
    expect(page).toHaveTextContent('2 comments');
    expect(page).toHaveTextContent('1 repost');
    const actions = within(page).getByRole('group', { name: 'Post actions' });
    for (const name of ['Like (2 likes)', 'Comments (2 comments)', 'Repost (1 repost)']) {
      expect(within(actions).getByRole('button', { name })).toBeEnabled();
    }
    const thread = screen.getByRole('listitem', { name: 'Comment by Ben Larsen' });
    expect(thread).toHaveTextContent('See you there');
    const replies = within(thread).getByRole('list', { name: 'Replies to Ben Larsen' });
    expect(replies).toHaveTextContent('Great!');
  });

  it("when the post is the viewer's own or someone else's, then it has the feed's one action bar, the same on both (issue 41)", async () => {
    const names = async (post: PostDetail) => {
      mockApi(() => ({ status: 200, body: post }));
      const { unmount } = openAt();
      const page = await screen.findByRole('article', { name: /^Post by / });
      const bar = within(page).getByRole('group', { name: 'Post actions' });
      const found = within(bar)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label') ?? button.textContent);
      unmount();
      return found;
    };
    const own = await names(detail({ isLiked: true, likesCount: 3 }));
    const others = await names(
      detail({ author: BEN, canDelete: false, isLiked: true, likesCount: 3 }),
    );
    expect(own).toEqual([
      'Liked (3 likes)',
      'Comments (2 comments)',
      'Repost (1 repost)',
      'Bookmark',
      'More actions for this post',
    ]);
    expect(others).toEqual(own);
  });

  it("when a post has no comments, then the thread says 'No comments yet' (issue 41)", async () => {
    mockApi(() => ({
      status: 200,
      body: detail({ comments: [], commentsCount: 0, commentsNextCursor: null }),
    }));
    openAt();
    expect(await screen.findByText('No comments yet')).toBeVisible();
  });

  it("says 'Post not found' when the post does not exist", async () => {
    mockApi(() => ({ status: 404, body: { message: 'Post not found' } }));
    openAt('/post/999');
    expect(await screen.findByRole('heading', { name: 'Post not found' })).toBeInTheDocument();
    expect(screen.getByText("This post doesn't exist or has been deleted.")).toBeInTheDocument();
  });

  it('loads more comments on demand, a page at a time, until there are none left', async () => {
    const fetchMock = mockApi(({ pathname, url }) => {
      if (pathname === '/api/posts/10/comments') {
        return url.searchParams.get('cursor') === 'page-2'
          ? {
              status: 200,
              body: {
                comments: [comment({ id: 60, content: 'From the second page', replies: [] })],
                nextCursor: 'page-3',
              },
            }
          : {
              status: 200,
              body: {
                comments: [comment({ id: 70, content: 'From the last page', replies: [] })],
                nextCursor: null,
              },
            };
      }
      return { status: 200, body: detail({ commentsNextCursor: 'page-2' }) };
    });
    openAt();
    const more = await screen.findByRole('button', { name: 'Load more comments' });
    expect(screen.queryByText('From the second page')).not.toBeInTheDocument();
    await userEvent.click(more);
    expect(await screen.findByText('From the second page')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load more comments' }));
    expect(await screen.findByText('From the last page')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more comments' })).not.toBeInTheDocument();
    expect(screen.getByText('See you there')).toBeInTheDocument();
    expect(
      callsTo(fetchMock, '/api/posts/10/comments').map(({ url }) => url.searchParams.get('cursor')),
    ).toEqual(['page-2', 'page-3']);
  });

  it('shows no Load more comments button when the detail holds every comment', async () => {
    mockApi(() => ({ status: 200, body: detail({ commentsNextCursor: null }) }));
    openAt();
    await screen.findByText('See you there');
    expect(screen.queryByRole('button', { name: 'Load more comments' })).not.toBeInTheDocument();
  });

  it('goes back in history, or home when the post was opened directly', async () => {
    mockApi(() => ({ status: 200, body: detail() }));
    openAt('/post/10', ['/somewhere', '/post/10']);
    await userEvent.click(await screen.findByRole('button', { name: '← Back' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/somewhere');
  });

  it('goes home from Back when there is no history', async () => {
    mockApi(() => ({ status: 200, body: detail() }));
    openAt();
    await userEvent.click(await screen.findByRole('button', { name: '← Back' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('likes the post optimistically', async () => {
    mockApi(({ init }) =>
      init.method === 'POST'
        ? { status: 200, body: { liked: true, likesCount: 3 } }
        : { status: 200, body: detail() },
    );
    openAt();
    const like = await screen.findByRole('button', { name: 'Like (2 likes)' });
    await userEvent.click(like);
    expect(like).toHaveAttribute('aria-pressed', 'true');
    expect(like).toHaveAccessibleName('Liked (3 likes)');
    expect(screen.getByRole('article')).toHaveTextContent('3 likes');
  });

  it('posts a trimmed comment to the timeline when asked, then refetches and announces it', async () => {
    const fetchMock = mockApi(({ init }) =>
      init.method === 'POST' ? { status: 201, body: comment() } : { status: 200, body: detail() },
    );
    const created = jest.fn();
    const off = onAppEvent('postCreated', created);
    openAt();
    const form = await screen.findByRole('form', { name: 'Add a comment' });
    const submit = within(form).getByRole('button', { name: 'Post Comment' });
    expect(submit).toBeDisabled();
    await userEvent.type(within(form).getByRole('textbox'), '   ');
    expect(submit).toBeDisabled();
    await userEvent.type(within(form).getByRole('textbox'), ' Count me in ');
    await userEvent.click(within(form).getByRole('checkbox', { name: 'Also post to my timeline' }));
    await userEvent.click(submit);
    await waitFor(() => expect(within(form).getByRole('textbox')).toHaveValue(''));
    const [post] = callsTo(fetchMock, '/api/posts/10/comments', 'POST');
    expect(JSON.parse(post!.init.body as string)).toEqual({
      content: 'Count me in',
      syncToTimeline: true,
    });
    expect(created).toHaveBeenCalled();
    await waitFor(() => expect(callsTo(fetchMock, '/api/posts/10').length).toBeGreaterThan(1));
    off();
  });

  it('when Ctrl+Enter or ⌘+Enter is pressed in the comment box, then the comment is sent (issue 41)', async () => {
    const fetchMock = mockApi(({ init }) =>
      init.method === 'POST' ? { status: 201, body: comment() } : { status: 200, body: detail() },
    );
    openAt();
    const form = await screen.findByRole('form', { name: 'Add a comment' });
    const field = within(form).getByRole('textbox');
    await userEvent.type(field, 'Plain Enter is a new line{Enter}');
    expect(callsTo(fetchMock, '/api/posts/10/comments', 'POST')).toHaveLength(0);
    await userEvent.type(field, 'then Ctrl{Control>}{Enter}{/Control}');
    await waitFor(() => expect(field).toHaveValue(''));
    await userEvent.type(field, 'and Cmd{Meta>}{Enter}{/Meta}');
    await waitFor(() => expect(field).toHaveValue(''));
    const sent = callsTo(fetchMock, '/api/posts/10/comments', 'POST').map(
      ({ init }) => (JSON.parse(init.body as string) as { content: string }).content,
    );
    expect(sent).toEqual(['Plain Enter is a new line\nthen Ctrl', 'and Cmd']);
  });

  it('replies to a reply on the top-level comment, never to the timeline', async () => {
    const fetchMock = mockApi(({ init }) =>
      init.method === 'POST' ? { status: 201, body: comment() } : { status: 200, body: detail() },
    );
    openAt();
    await userEvent.click(await screen.findByRole('button', { name: 'Reply to Ada Okafor' }));
    const form = screen.getByRole('form', { name: 'Reply to Ada Okafor' });
    expect(within(form).queryByRole('checkbox')).not.toBeInTheDocument();
    await userEvent.type(within(form).getByRole('textbox'), 'Thanks');
    await userEvent.click(within(form).getByRole('button', { name: 'Post Reply' }));
    await waitFor(() =>
      expect(screen.queryByRole('form', { name: 'Reply to Ada Okafor' })).not.toBeInTheDocument(),
    );
    const [reply] = callsTo(fetchMock, '/api/posts/10/comments', 'POST');
    expect(JSON.parse(reply!.init.body as string)).toEqual({
      content: 'Thanks',
      syncToTimeline: false,
      parentId: 50,
    });
  });

  it('links the tags and mentions of the post and its comments (issue 40)', async () => {
    mockApi(() => ({
      status: 200,
      body: detail({
        content: 'Hackathon with @Ben Larsen #hack',
        mentions: [{ id: 2, start: 15, end: 26 }],
        comments: [
          comment({
            content: 'Count me in @Ada Okafor #hack',
            mentions: [{ id: 1, start: 12, end: 23 }],
          }),
        ],
      }),
    }));
    openAt();
    const page = await screen.findByRole('article', { name: 'Post by Ada Okafor' });
    expect(within(page).getByRole('link', { name: '@Ben Larsen' })).toHaveAttribute(
      'href',
      '/profile/2',
    );
    const thread = screen.getByRole('listitem', { name: 'Comment by Ben Larsen' });
    expect(within(thread).getByRole('link', { name: '@Ada Okafor' })).toHaveAttribute(
      'href',
      '/profile/1',
    );
    expect(within(thread).getByRole('link', { name: '#hack' })).toHaveAttribute(
      'href',
      '/tags/hack',
    );
    expect(within(page).getAllByRole('link', { name: '#hack' })).toHaveLength(2);
  });

  it('mentions a member in a reply with the keyboard and sends their id (issue 40)', async () => {
    const fetchMock = mockApi(({ init, pathname }) =>
      pathname === '/api/users/mention-suggestions'
        ? {
            status: 200,
            body: [
              {
                id: 2,
                name: 'Ben Larsen',
                email: 'ben@campus.edu',
                avatarUrl: null,
                isFollowing: true,
              },
            ],
          }
        : init.method === 'POST'
          ? { status: 201, body: comment() }
          : { status: 200, body: detail() },
    );
    openAt();
    await userEvent.click(await screen.findByRole('button', { name: 'Reply to Ada Okafor' }));
    const form = screen.getByRole('form', { name: 'Reply to Ada Okafor' });
    await userEvent.type(within(form).getByRole('textbox'), 'Ask @be');
    await within(form).findByRole('option', { name: /Ben Larsen/ });
    await userEvent.keyboard('{Tab}');
    expect(within(form).getByRole('textbox')).toHaveValue('Ask @Ben Larsen ');
    await userEvent.click(within(form).getByRole('button', { name: 'Post Reply' }));
    await waitFor(() =>
      expect(callsTo(fetchMock, '/api/posts/10/comments', 'POST')).toHaveLength(1),
    );
    const [reply] = callsTo(fetchMock, '/api/posts/10/comments', 'POST');
    expect(JSON.parse(reply!.init.body as string)).toEqual({
      content: 'Ask @Ben Larsen',
      syncToTimeline: false,
      parentId: 50,
      mentions: [2],
    });
  });

  it('bookmarks the post from its page (issue 40)', async () => {
    const fetchMock = mockApi(({ init, pathname }) =>
      pathname === '/api/posts/10/bookmark' && init.method === 'POST'
        ? { status: 200, body: { postId: 10, bookmarked: true } }
        : { status: 200, body: detail({ isBookmarked: false }) },
    );
    openAt();
    const page = await screen.findByRole('article', { name: 'Post by Ada Okafor' });
    await userEvent.click(within(page).getByRole('button', { name: 'Bookmark' }));
    expect(within(page).getByRole('button', { name: 'Remove bookmark' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await waitFor(() =>
      expect(callsTo(fetchMock, '/api/posts/10/bookmark', 'POST')).toHaveLength(1),
    );
  });

  it('keeps the comment and says so when posting fails', async () => {
    mockApi(({ init }) =>
      init.method === 'POST' ? { status: 500 } : { status: 200, body: detail() },
    );
    openAt();
    const form = await screen.findByRole('form', { name: 'Add a comment' });
    await userEvent.type(within(form).getByRole('textbox'), 'Hello');
    await userEvent.click(within(form).getByRole('button', { name: 'Post Comment' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to post comment. Please try again.',
    );
    expect(within(form).getByRole('textbox')).toHaveValue('Hello');
  });

  it("keeps the comment and shows the API's limit message when the member comments too fast (429)", async () => {
    const message =
      'Too many comments: you can make at most 20 comments per minute. Please try again in 12 seconds.';
    mockApi(({ init }) =>
      init.method === 'POST' ? { status: 429, body: { message } } : { status: 200, body: detail() },
    );
    openAt();
    const form = await screen.findByRole('form', { name: 'Add a comment' });
    await userEvent.type(within(form).getByRole('textbox'), 'Hello');
    await userEvent.click(within(form).getByRole('button', { name: 'Post Comment' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(within(form).getByRole('textbox')).toHaveValue('Hello');
  });

  it('likes a comment', async () => {
    const fetchMock = mockApi(({ init }) =>
      init.method === 'POST'
        ? { status: 200, body: { liked: true, likesCount: 1 } }
        : { status: 200, body: detail() },
    );
    openAt();
    const like = await screen.findByRole('button', {
      name: 'Like comment by Ben Larsen (0 likes)',
    });
    await userEvent.click(like);
    expect(like).toHaveAttribute('aria-pressed', 'true');
    expect(callsTo(fetchMock, '/api/comments/50/like', 'POST')).toHaveLength(1);
  });

  it('offers delete only when the API says the viewer may (canDelete), even to the author', async () => {
    mockApi(() => ({ status: 200, body: detail({ canDelete: false }) }));
    openAt();
    await screen.findByRole('article', { name: 'Post by Ada Okafor' });
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('deletes after confirmation, announces it and goes back to the feed', async () => {
    const fetchMock = mockApi(({ init }) =>
      init.method === 'DELETE'
        ? { status: 200, body: { id: 10, deleted: true } }
        : { status: 200, body: detail() },
    );
    const deleted = jest.fn();
    const off = onAppEvent('postDeleted', deleted);
    openAt('/post/10', ['/', '/post/10']);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete post' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to delete this post? This action cannot be undone.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Post deleted successfully!')).toBeInTheDocument();
    expect(deleted).toHaveBeenCalledWith({ postId: 10 });
    // The navigation is a transition React may draw after the toast: wait for it.
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(callsTo(fetchMock, '/api/posts/10', 'DELETE')).toHaveLength(1);
    off();
  });

  it("shows the server's message when deleting fails", async () => {
    mockApi(({ init }) =>
      init.method === 'DELETE'
        ? { status: 500, body: { message: 'Something went wrong' } }
        : { status: 200, body: detail() },
    );
    openAt();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await userEvent.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong');
    expect(screen.getByTestId('location')).toHaveTextContent('/post/10');
  });

  it('shows a repost with its quote and a link to the original', async () => {
    const original = makePost({ id: 5, author: BEN, content: 'Original words' });
    mockApi(() => ({
      status: 200,
      body: detail({
        content: '',
        isJdTagged: false,
        originalPostId: 5,
        repostComment: 'Must read',
        originalPost: withoutOriginal(original),
      }),
    }));
    openAt();
    const page = await screen.findByRole('article', { name: 'Post by Ada Okafor' });
    expect(page).toHaveTextContent('Ada Okafor reposted');
    expect(within(page).getByLabelText("Ada Okafor's comment")).toHaveTextContent('Must read');
    expect(page).toHaveTextContent('Original words');
    expect(within(page).getByRole('link', { name: 'View original post' })).toHaveAttribute(
      'href',
      '/post/5',
    );
  });

  it('focuses the comment box from Comment', async () => {
    mockApi(() => ({ status: 200, body: detail() }));
    openAt();
    const page = await screen.findByRole('article', { name: 'Post by Ada Okafor' });
    const field = within(page).getByRole('textbox', { name: 'Write a comment' });
    expect(field).not.toHaveFocus();
    await userEvent.click(within(page).getByRole('button', { name: 'Comments (2 comments)' }));
    expect(field).toHaveFocus();
  });

  it('opens the repost dialog from Repost, and Repost withdraws the repost afterwards', async () => {
    const api = mockApi(({ method, pathname }) => {
      if (method === 'POST' && pathname === '/api/posts/10/repost') {
        return { status: 201, body: makePost({ id: 99, originalPostId: 10 }) };
      }
      if (method === 'DELETE' && pathname === '/api/posts/10/repost') {
        return {
          status: 200,
          body: { postId: 10, repostPostId: 99, reposted: false, repostsCount: 1 },
        };
      }
      return { status: 200, body: detail() };
    });
    openAt();
    const page = await screen.findByRole('article', { name: 'Post by Ada Okafor' });
    const button = within(page).getByRole('button', { name: 'Repost (1 repost)' });
    await userEvent.click(button);
    const dialog = screen.getByRole('dialog', { name: 'Repost' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Repost' }));
    expect(await screen.findByText('Post reposted successfully!')).toBeInTheDocument();
    await waitFor(() => expect(button).toHaveAttribute('aria-pressed', 'true'));
    await userEvent.click(button);
    expect(await screen.findByText('Your repost was removed.')).toBeInTheDocument();
    expect(callsTo(api, '/api/posts/10/repost', 'DELETE')).toHaveLength(1);
  });

  it('opens the original instead of a plain repost, so its thread stays whole', async () => {
    const original = makePost({ id: 5, author: BEN, content: 'Original words' });
    mockApi(({ pathname }) => ({
      status: 200,
      body:
        pathname === '/api/posts/12'
          ? detail({
              id: 12,
              content: '',
              originalPostId: 5,
              repostComment: null,
              originalPost: withoutOriginal(original),
            })
          : detail({ ...withoutOriginal(original), comments: [] }),
    }));
    openAt('/post/12');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/post/5'));
    expect(await screen.findByRole('article', { name: 'Post by Ben Larsen' })).toHaveTextContent(
      'Original words',
    );
  });
});
