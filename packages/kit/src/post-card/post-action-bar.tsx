import type { ReactNode } from 'react';
import styled from 'styled-components';
import type { BookmarkResponse, LikeResponse, Post } from '@campus/contracts';
import { useSession } from '@campus/kit/session';
import { mediaMobile } from '@campus/kit/theme';
import { BookmarkIcon, HeartIcon, CommentIcon, RepostIcon } from './icons';
import { togglePostLike } from './post-requests';
import { usePostBookmark } from './use-post-bookmark';
import { usePostLike, type LikeState } from './use-post-like';
import type { RepostState } from './use-post-repost';

const Bar = styled.div<{ $indent: boolean }>`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(6)};
  padding-left: ${({ $indent }) => ($indent ? '52px' : '0')};

  /* The same four places on every post, the author's or not (issue 41). */
  ${mediaMobile} {
    justify-content: space-between;
    gap: ${({ theme }) => theme.space(2)};
    padding-left: 0;
  }
`;

const ActionButton = styled.button`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(1.5)};
  padding: ${({ theme }) => theme.space(1)};
  border: 0;
  border-radius: ${({ theme }) => theme.radius.md};
  background: none;
  font: inherit;
  font-size: 0.875rem;
  color: ${({ theme }) => theme.colors.textMuted};
  cursor: pointer;
  touch-action: manipulation;

  &:hover:not(:disabled) {
    background: ${({ theme }) => theme.colors.surfaceMuted};
  }
  &:disabled {
    opacity: 0.45;
    cursor: not-allowed;
  }
  &[aria-pressed='true'] {
    font-weight: 600;
  }

  /* A fingertip needs 44 x 44 px (WCAG 2.5.5). */
  ${mediaMobile} {
    min-width: 44px;
    min-height: 44px;
    justify-content: center;
    padding: ${({ theme }) => theme.space(2.5)};
  }
`;

/**
 * The like button: its pressed colour comes from `aria-pressed`, a rule of the one class every like
 * button shares, so a like never makes styled-components generate and inject a class of its own
 * (a new rule in the page's style sheet makes the browser recompute the style of every element).
 */
const LikeButton = styled(ActionButton)`
  &[aria-pressed='true'] {
    color: ${({ theme }) => theme.colors.danger};
  }
`;

const RepostButton = styled(ActionButton)`
  &[aria-pressed='true'] {
    color: ${({ theme }) => theme.colors.success};
  }
`;

const BookmarkButton = styled(ActionButton)`
  &[aria-pressed='true'] {
    color: ${({ theme }) => theme.colors.primary};
  }
`;

const plural = (count: number, one: string) => `${count} ${count === 1 ? one : `${one}s`}`;

/** The like button's name: a liked post reads "Liked" (issue 41), with its count. */
export const likeLabel = ({ liked, likesCount }: LikeState) =>
  `${liked ? 'Liked' : 'Like'} (${plural(likesCount, 'like')})`;

/** A like state with its toggle (`usePostLike`), kept by a page that shows the count elsewhere. */
export type LikeControl = LikeState & { toggle: () => Promise<void> };

export interface PostActionBarProps {
  /** The post the actions apply to: the credited post (a plain repost acts on its original). */
  post: Omit<Post, 'originalPost'>;
  /**
   * The like state, when the caller also shows it elsewhere (the post page's counts). Without it
   * the bar keeps its own (`likeRequest`, `onLikeSettled`): a like draws the button, not the card.
   */
  like?: LikeControl;
  /** Replace the like request (default `POST /api/posts/{id}/like`). */
  likeRequest?: (postId: number) => Promise<LikeResponse>;
  onLikeSettled?: (result: LikeResponse) => void;
  /** Whether the viewer reposted the post, and the count (`usePostRepost`). */
  reposts: RepostState & { pending: boolean };
  /** False on a post that quotes another (spec §2: a repost cannot be reposted). */
  repostable: boolean;
  /** Repost: opens the repost dialog, or withdraws the viewer's repost. */
  onRepost: () => void;
  /** Comment: opens the post at its comment box, or focuses it on the post page. */
  onComment: () => void;
  onBookmarkChange?: (result: BookmarkResponse) => void;
  /** The feed's cards line the bar up under the text, past the avatar; the post page does not. */
  indent?: boolean;
  /** After the four actions: the '⋯' menu and its dialogs. */
  children?: ReactNode;
}

/**
 * The actions of a post, one bar on the feed's cards and on the post page (issue 41): Like,
 * Comment and Repost as icons with their counts (their names say the action and the count), the
 * bookmark of signed-in members (issue 40), then the '⋯' menu. Likes are optimistic.
 */
export function PostActionBar({
  post,
  like,
  likeRequest = togglePostLike,
  onLikeSettled,
  reposts,
  repostable,
  onRepost,
  onComment,
  onBookmarkChange,
  indent = false,
  children,
}: PostActionBarProps) {
  const { user } = useSession();
  const repostTitle = !repostable
    ? 'A repost cannot be reposted'
    : !user
      ? 'Sign in to repost'
      : reposts.reposted
        ? 'Undo repost'
        : undefined;
  return (
    <Bar role="group" aria-label="Post actions" $indent={indent}>
      {like ? (
        <LikeToggle like={like} />
      ) : (
        <PostLikeButton post={post} request={likeRequest} onSettled={onLikeSettled} />
      )}
      <ActionButton
        type="button"
        aria-label={`Comments (${plural(post.commentsCount, 'comment')})`}
        onClick={onComment}
      >
        <CommentIcon />
        <span aria-hidden="true">{post.commentsCount}</span>
      </ActionButton>
      <RepostButton
        type="button"
        aria-label={`Repost (${plural(reposts.repostsCount, 'repost')})`}
        aria-pressed={user && repostable ? reposts.reposted : undefined}
        title={repostTitle}
        disabled={!repostable || !user || reposts.pending}
        onClick={onRepost}
      >
        <RepostIcon />
        <span aria-hidden="true">{reposts.repostsCount}</span>
      </RepostButton>
      {user && <PostBookmarkButton post={post} onSettled={onBookmarkChange} />}
      {children}
    </Bar>
  );
}

/**
 * The bookmark toggle of signed-in members (issue 40), with its own state (usePostBookmark):
 * private, so no count.
 */
function PostBookmarkButton({
  post,
  onSettled,
}: {
  post: Omit<Post, 'originalPost'>;
  onSettled?: (result: BookmarkResponse) => void;
}) {
  const bookmark = usePostBookmark(post, { onSettled });
  return (
    <BookmarkButton
      type="button"
      aria-label={bookmark.bookmarked ? 'Remove bookmark' : 'Bookmark'}
      aria-pressed={bookmark.bookmarked}
      onClick={() => void bookmark.toggle()}
    >
      <BookmarkIcon filled={bookmark.bookmarked} />
    </BookmarkButton>
  );
}

function LikeToggle({ like }: { like: LikeControl }) {
  return (
    <LikeButton
      type="button"
      aria-label={likeLabel(like)}
      aria-pressed={like.liked}
      onClick={() => void like.toggle()}
    >
      <HeartIcon filled={like.liked} />
      <span aria-hidden="true">{like.likesCount}</span>
    </LikeButton>
  );
}

/**
 * The like button with its own state (usePostLike): a like draws this button again, not its card.
 */
function PostLikeButton({
  post,
  request,
  onSettled,
}: {
  post: Omit<Post, 'originalPost'>;
  request: (postId: number) => Promise<LikeResponse>;
  onSettled?: (result: LikeResponse) => void;
}) {
  return <LikeToggle like={usePostLike(post, { request, onSettled })} />;
}
