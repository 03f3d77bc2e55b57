import { useState, type MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import type { LikeResponse, Post } from '@campus/contracts';
import { relativeTime } from '@campus/kit/format';
import { ReportMenu } from '@campus/kit/report';
import { useSession } from '@campus/kit/session';
import { HeartIcon, CommentIcon, RepostIcon } from './icons';
import { isRepost, repostPost, togglePostLike } from './post-requests';
import { PostBody, QuotedPost } from './quoted-post';
import { RepostDialog } from './repost-dialog';
import { usePostLike } from './use-post-like';

const Article = styled.article`
  display: grid;
  gap: ${({ theme }) => theme.space(2)};
  padding: ${({ theme }) => theme.space(4)};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  cursor: pointer;

  &:hover {
    background: ${({ theme }) => theme.colors.background};
  }
`;

const RepostLine = styled.p`
  display: flex;
  gap: ${({ theme }) => theme.space(1.5)};
  align-items: center;
  margin: 0;
  font-size: 0.8125rem;
  color: ${({ theme }) => theme.colors.textMuted};

  a {
    color: inherit;
    font-weight: 600;
    text-decoration: none;
  }
  a:hover {
    text-decoration: underline;
  }
`;

const Quote = styled.blockquote`
  margin: 0;
  padding-left: ${({ theme }) => theme.space(3)};
  border-left: 3px solid ${({ theme }) => theme.colors.border};
  white-space: pre-wrap;
  overflow-wrap: anywhere;
`;

const Original = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(2)};
  padding: ${({ theme }) => theme.space(3)};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};

  > a {
    justify-self: start;
    font-size: 0.8125rem;
    font-weight: 600;
    color: ${({ theme }) => theme.colors.primary};
    text-decoration: none;
  }
`;

const Actions = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space(6)};
  padding-left: 52px;
`;

export const ActionButton = styled.button<{ $active?: boolean }>`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(1.5)};
  padding: ${({ theme }) => theme.space(1)};
  border: 0;
  border-radius: ${({ theme }) => theme.radius.md};
  background: none;
  font: inherit;
  font-size: 0.875rem;
  color: ${({ theme, $active }) => ($active ? theme.colors.danger : theme.colors.textMuted)};
  cursor: pointer;

  &:hover:not(:disabled) {
    background: ${({ theme }) => theme.colors.surfaceMuted};
  }
  &:disabled {
    opacity: 0.45;
    cursor: not-allowed;
  }
`;

export interface PostCardProps {
  /** The post as the API returns it (spec §3 Post shape). */
  post: Post;
  /** Called just before the card navigates to /post/{id} (a feed saves its scroll here). */
  onOpen?: (post: Post) => void;
  /** After the server confirmed a like toggle, with its `{ liked, likesCount }`. */
  onLikeChange?: (post: Post, result: LikeResponse) => void;
  /** After a successful repost, with the new repost (refresh a list here). */
  onReposted?: (repost: Post, original: Post) => void;
  /** Replace the like request (default `POST /api/posts/{id}/like`). */
  likeRequest?: (postId: number) => Promise<LikeResponse>;
  /** Replace the repost request (default `POST /api/posts/{id}/repost`). */
  repostRequest?: (postId: number, comment?: string) => Promise<Post>;
}

const INTERACTIVE = 'a, button, input, textarea, select, label, [role="dialog"]';

const plural = (count: number, one: string) => `${count} ${count === 1 ? one : `${one}s`}`;

/**
 * Spec §2 post card, shared by the feed and the profile. The actions apply to this post (a repost
 * has its own likes and comments); likes are optimistic; a repost cannot be reposted; only a
 * signed-in user gets the repost dialog. Clicking the card (outside its links and buttons) or its
 * time opens /post/{id}.
 */
export function PostCard({
  post,
  onOpen,
  onLikeChange,
  onReposted,
  likeRequest = togglePostLike,
  repostRequest = repostPost,
}: PostCardProps) {
  const navigate = useNavigate();
  const { user } = useSession();
  const like = usePostLike(post, {
    request: likeRequest,
    onSettled: onLikeChange ? (result) => onLikeChange(post, result) : undefined,
  });
  const [repostOpen, setRepostOpen] = useState(false);
  // Counted from this post's repostsCount; fresh data from the server replaces it.
  const [repostedFrom, setRepostedFrom] = useState<number | null>(null);
  const repost = isRepost(post);
  const href = `/post/${post.id}`;
  const authorName = repost
    ? (post.originalPost?.author.name ?? post.author.name)
    : post.author.name;
  const justReposted = repostedFrom === post.repostsCount;
  const repostsCount = justReposted ? post.repostsCount + 1 : post.repostsCount;
  const alreadyReposted = justReposted || post.isReposted;

  const open = () => {
    onOpen?.(post);
    void navigate(href);
  };

  const onCardClick = (event: MouseEvent<HTMLElement>) => {
    const target = event.target as Element;
    // Dialogs are portalled out of the card: their clicks bubble through React but not the DOM.
    if (!event.currentTarget.contains(target) || target.closest(INTERACTIVE)) return;
    if (window.getSelection?.()?.toString()) return; // selecting text is not opening
    open();
  };

  const repostLabel = repost
    ? 'A repost cannot be reposted'
    : alreadyReposted
      ? 'You reposted this post'
      : !user
        ? 'Sign in to repost'
        : undefined;

  return (
    <Article
      aria-label={repost ? `${post.author.name} reposted ${authorName}` : `Post by ${authorName}`}
      onClick={onCardClick}
    >
      {repost ? (
        <>
          <RepostLine>
            <RepostIcon />
            <span>
              <Link to={`/profile/${post.author.id}`}>{post.author.name}</Link> reposted ·{' '}
              <Link
                to={href}
                aria-label={`Open repost, ${relativeTime(post.createdAt)}`}
                onClick={() => onOpen?.(post)}
              >
                {relativeTime(post.createdAt)}
              </Link>
            </span>
          </RepostLine>
          {post.repostComment && (
            <Quote aria-label={`${post.author.name}'s comment`}>{post.repostComment}</Quote>
          )}
          <Original>
            <QuotedPost post={post} />
            {post.originalPost && (
              <Link to={`/post/${post.originalPostId}`} onClick={() => onOpen?.(post)}>
                View original post
              </Link>
            )}
          </Original>
        </>
      ) : (
        <PostBody post={post} href={href} onOpen={() => onOpen?.(post)} />
      )}
      <Actions>
        <ActionButton
          type="button"
          aria-label={`Like (${plural(like.likesCount, 'like')})`}
          aria-pressed={like.liked}
          $active={like.liked}
          onClick={() => void like.toggle()}
        >
          <HeartIcon filled={like.liked} />
          <span aria-hidden="true">{like.likesCount}</span>
        </ActionButton>
        <ActionButton
          type="button"
          aria-label={`Comments (${plural(post.commentsCount, 'comment')})`}
          onClick={open}
        >
          <CommentIcon />
          <span aria-hidden="true">{post.commentsCount}</span>
        </ActionButton>
        <ActionButton
          type="button"
          aria-label={`Repost (${plural(repostsCount, 'repost')})`}
          title={repostLabel}
          disabled={repost || alreadyReposted || !user}
          onClick={() => setRepostOpen(true)}
        >
          <RepostIcon />
          <span aria-hidden="true">{repostsCount}</span>
        </ActionButton>
        <ReportMenu
          targetType="post"
          targetId={post.id}
          authorId={post.author.id}
          label="Report post"
          menuLabel="More actions for this post"
        />
      </Actions>
      {user && !repost && (
        <RepostDialog
          post={post}
          open={repostOpen}
          onOpenChange={setRepostOpen}
          request={repostRequest}
          onReposted={(created) => {
            setRepostedFrom(post.repostsCount);
            onReposted?.(created, post);
          }}
        />
      )}
    </Article>
  );
}
