import { act, screen, waitFor } from '@testing-library/react';
import type { Comment, PostDetail } from '@campus/contracts';
import { clearStoredAuth } from '@campus/kit/api';
import { dismissToast } from '@campus/kit/toast';
import { ADA, BEN, callsTo, makePost, mockApi, renderPage, signIn } from '@campus/kit/testing';
import { linkedCommentId } from './linked-comment';
import PostDetailPage from './post-detail-page';

const comment = (overrides: Partial<Comment> = {}): Comment => ({
  id: 50,
  content: 'See you there',
  createdAt: new Date().toISOString(),
  author: BEN,
  likesCount: 0,
  isLiked: false,
  replies: [],
  ...overrides,
});

const detail = (overrides: Partial<PostDetail> = {}): PostDetail => ({
  ...makePost({ id: 10, author: ADA, content: 'Hackathon', commentsCount: 3 }),
  comments: [
    comment({ replies: [comment({ id: 51, author: ADA, content: 'The reply you were told of' })] }),
  ],
  ...overrides,
});

const openAt = (path: string) => renderPage(<PostDetailPage />, { route: '/post/:id', path });

const scrolledTo: Element[] = [];
beforeAll(() => {
  // jsdom lays nothing out: record which element the page scrolls to.
  Element.prototype.scrollIntoView = function scrollIntoView(this: Element) {
    scrolledTo.push(this);
  };
});
beforeEach(() => {
  scrolledTo.length = 0;
  signIn(ADA);
  act(() => dismissToast());
});
afterEach(() => clearStoredAuth());

describe('A comment notification opening the post (#comment-<id>, issue 41)', () => {
  it('reads the comment id of a #comment-<id> link, and nothing else', () => {
    expect(linkedCommentId('#comment-34')).toBe(34);
    expect(linkedCommentId('#comment-0')).toBeNull();
    expect(linkedCommentId('#comment-x')).toBeNull();
    expect(linkedCommentId('#top')).toBeNull();
    expect(linkedCommentId('')).toBeNull();
  });

  it('when the link names a reply, then the page scrolls to it, focuses it and highlights it only', async () => {
    mockApi(() => ({ status: 200, body: detail() }));
    openAt('/post/10#comment-51');
    const reply = await screen.findByRole('listitem', { name: 'Comment by Ada Okafor' });
    await waitFor(() => expect(reply).toHaveFocus());
    expect(scrolledTo).toEqual([reply]);
    expect(reply).toHaveAttribute('data-linked');
    expect(screen.getByRole('listitem', { name: 'Comment by Ben Larsen' })).not.toHaveAttribute(
      'data-linked',
    );
  });

  it('when the comment is on a later page of the thread, then the page reads on until it finds it', async () => {
    const fetchMock = mockApi(({ pathname, url }) => {
      if (pathname === '/api/posts/10/comments') {
        return url.searchParams.get('cursor') === 'page-2'
          ? {
              status: 200,
              body: { comments: [comment({ id: 60, content: 'Page two' })], nextCursor: 'page-3' },
            }
          : {
              status: 200,
              body: {
                comments: [comment({ id: 70, author: ADA, content: 'Linked, page three' })],
                nextCursor: 'page-4',
              },
            };
      }
      return { status: 200, body: detail({ commentsNextCursor: 'page-2' }) };
    });
    openAt('/post/10#comment-70');
    const linked = await screen.findByText('Linked, page three');
    const item = linked.closest('li')!;
    await waitFor(() => expect(item).toHaveFocus());
    expect(item).toHaveAttribute('data-linked');
    expect(scrolledTo).toEqual([item]);
    // It stops reading once the comment is there.
    expect(
      callsTo(fetchMock, '/api/posts/10/comments').map(({ url }) => url.searchParams.get('cursor')),
    ).toEqual(['page-2', 'page-3']);
  });

  it('when the comment is gone, then the page says so once the thread is read', async () => {
    mockApi(() => ({ status: 200, body: detail({ commentsNextCursor: null }) }));
    openAt('/post/10#comment-99');
    expect(await screen.findByText('The comment you followed is no longer here.')).toBeVisible();
    expect(scrolledTo).toEqual([]);
  });

  it('when the link is to a plain repost, then the original opens with the link to the comment', async () => {
    const { originalPost: _none, ...original } = makePost({ id: 5, author: BEN, content: 'Words' });
    mockApi(({ pathname }) => ({
      status: 200,
      body:
        pathname === '/api/posts/12'
          ? detail({ id: 12, content: '', originalPostId: 5, originalPost: original })
          : detail({ ...original, comments: [comment({ id: 80, content: 'On the original' })] }),
    }));
    openAt('/post/12#comment-80');
    const item = (await screen.findByText('On the original')).closest('li')!;
    await waitFor(() => expect(item).toHaveFocus());
    expect(screen.getByTestId('location')).toHaveTextContent('/post/5');
  });
});
