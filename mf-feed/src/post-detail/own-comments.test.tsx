import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Comment, PostDetail } from '@campus/contracts';
import { clearStoredAuth } from '@campus/kit/api';
import { dismissToast } from '@campus/kit/toast';
import { ADA, BEN, callsTo, makePost, mockApi, renderPage, signIn } from '@campus/kit/testing';
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

const detail = (comments: Comment[]): PostDetail => ({
  ...makePost({ id: 10, author: ADA, content: 'Hackathon', commentsCount: 2, canDelete: true }),
  comments,
});

const openPost = () => renderPage(<PostDetailPage />, { route: '/post/:id', path: '/post/10' });

beforeEach(() => {
  signIn(ADA);
  act(() => dismissToast());
});
afterEach(() => clearStoredAuth());

describe('Your own comments on the post page', () => {
  it('shows a comment deleted while it had replies as a placeholder above them, with no menu', async () => {
    mockApi(() => ({
      status: 200,
      body: detail([
        comment({
          content: '',
          deleted: true,
          replies: [comment({ id: 51, author: ADA, content: 'Still relevant' })],
        }),
      ]),
    }));
    openPost();
    const placeholder = await screen.findByRole('listitem', { name: 'Deleted comment' });
    expect(placeholder).toHaveTextContent('This comment was deleted.');
    expect(
      within(placeholder).getByRole('list', { name: 'Replies to a deleted comment' }),
    ).toHaveTextContent('Still relevant');
    expect(
      within(placeholder).queryByRole('button', { name: /comment by Ben Larsen/ }),
    ).not.toBeInTheDocument();
  });

  it('marks an edited comment and, when its author deletes it, reads the thread again', async () => {
    let deleted = false;
    const fetchMock = mockApi(({ method, pathname }) => {
      if (method === 'DELETE' && pathname === '/api/comments/52') {
        deleted = true;
        return {
          status: 200,
          body: { id: 52, postId: 10, deleted: true, placeholder: false, commentsCount: 1 },
        };
      }
      const mine = comment({
        id: 52,
        author: ADA,
        content: 'Mine, fixed',
        editedAt: new Date().toISOString(),
      });
      return { status: 200, body: detail(deleted ? [comment()] : [comment(), mine]) };
    });
    const user = userEvent.setup();
    openPost();
    const mine = await screen.findByRole('listitem', { name: 'Comment by Ada Okafor' });
    expect(within(mine).getByRole('button', { name: /^Edited / })).toHaveTextContent('edited');
    await user.click(
      within(mine).getByRole('button', { name: 'More actions for the comment by Ada Okafor' }),
    );
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete comment' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(
        screen.queryByRole('listitem', { name: 'Comment by Ada Okafor' }),
      ).not.toBeInTheDocument(),
    );
    expect(callsTo(fetchMock, '/api/comments/52', 'DELETE')).toHaveLength(1);
    expect(screen.getByRole('listitem', { name: 'Comment by Ben Larsen' })).toBeInTheDocument();
  });
});
