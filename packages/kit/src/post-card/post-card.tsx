import { memo, useCallback, useLayoutEffect, useRef, useState, type MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import type { AttachImageRequest, BookmarkResponse, LikeResponse, Post } from '@campus/contracts';
import { TimeAgo, useMinuteClock } from '@campus/kit/format';
import { EditedLabel, PostMenu } from '@campus/kit/own-words';
import { MutedPostRow, useSafetyMenuItems } from '@campus/kit/safety';
import { useSession } from '@campus/kit/session';
import { Linkified } from '@campus/kit/text';
import { touchTextTarget } from '@campus/kit/theme';
import { CommentIcon, RepostIcon } from './icons';
import { PostActionBar } from './post-action-bar';
import {
  creditedPost,
  isRepost,
  isSharedComment,
  repostPost,
  togglePostLike,
  undoRepost,
  type UndoneRepost,
} from './post-requests';
import { imagesOf } from './image-sources';
import { PostImages } from './post-images';
import { PostBody, QuotedPost, ellipsis, openLabel } from './quoted-post';
import { RepostDialog } from './repost-dialog';
import { usePostRepost } from './use-post-repost';

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

  min-width: 0;

  > span {
    display: flex;
    gap: ${({ theme }) => theme.space(1)};
    min-width: 0;
    white-space: nowrap;
  }
  a {
    color: inherit;
    font-weight: 600;
    text-decoration: none;
  }
  a:hover {
    text-decoration: underline;
  }
  .actor {
    ${ellipsis}
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
    ${touchTextTarget}
  }
`;

export interface PostCardProps {
  /** The post as the API returns it (spec §3 Post shape). */
  post: Post;
  /** Called just before the card navigates to a post (a feed saves its scroll here). */
  onOpen?: (post: Post) => void;
  /** After the server confirmed a like toggle of the post acted on, with `{ liked, likesCount }`. */
  onLikeChange?: (post: Post, result: LikeResponse) => void;
  /** After a successful repost, with the new repost and the post reposted (refresh a list here). */
  onReposted?: (repost: Post, original: Omit<Post, 'originalPost'>) => void;
  /** After the viewer withdrew their repost of the post acted on (refresh a list here). */
  onRepostUndone?: (original: Omit<Post, 'originalPost'>) => void;
  /** After the server confirmed a bookmark change of the post acted on (issue 40). */
  onBookmarkChange?: (post: Post, result: BookmarkResponse) => void;
  /** Replace the like request (default `POST /api/posts/{id}/like`). */
  likeRequest?: (postId: number) => Promise<LikeResponse>;
  /** Replace the repost request (default `POST /api/posts/{id}/repost`). */
  repostRequest?: (
    postId: number,
    comment?: string,
    images?: readonly AttachImageRequest[],
    mentions?: readonly number[],
  ) => Promise<Post>;
  /** Replace the undo request (default `DELETE /api/posts/{id}/repost`). */
  undoRepostRequest?: (postId: number) => Promise<UndoneRepost>;
  /**
   * The first post of a page (issue 39): its images load at once, the first with high priority;
   * every other card's images load lazily as they near the viewport.
   */
  imagePriority?: boolean;
}

const INTERACTIVE = 'a, button, input, textarea, select, label, [role="dialog"]';

/** What the detail page reads from the location state: open with the comment box focused. */
export interface OpenPostState {
  focusComment?: boolean;
}

/**
 * Spec §2 post card, shared by the feed and the profile. The actions apply to the post the card
 * credits (`creditedPost`): a plain repost and a comment shared to a timeline act on their
 * original (likes, comments, the repost button and opening), a quote on itself. Likes are
 * optimistic; the repost button reposts through the dialog (signed-in members only) or, once the
 * viewer reposted, withdraws their repost; a post that quotes another cannot be reposted.
 * Clicking the card (outside its links and buttons) or its time opens the post. Signed-in
 * members keep a post with the bookmark toggle (issue 40), which also acts on the credited post.
 */
export const PostCard = memo(function PostCard(props: PostCardProps) {
  // A post with one of the viewer's muted words (issue 38) shows as a collapsed row until opened;
  // once opened, the card takes the focus from the row's button.
  const [shown, setShown] = useState(false);
  const opened = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (shown) opened.current?.focus();
  }, [shown]);
  if (props.post.mutedWord === undefined) return <PostCardContent {...props} />;
  if (!shown)
    return <MutedPostRow authorName={props.post.author.name} onShow={() => setShown(true)} />;
  return (
    <div ref={opened} tabIndex={-1}>
      <PostCardContent {...props} />
    </div>
  );
});

function PostCardContent({
  post,
  onOpen,
  onLikeChange,
  onReposted,
  onRepostUndone,
  onBookmarkChange,
  likeRequest = togglePostLike,
  repostRequest = repostPost,
  undoRepostRequest = undoRepost,
  imagePriority = false,
}: PostCardProps) {
  const navigate = useNavigate();
  const { user } = useSession();
  useMinuteClock(); // the time links' names say the time
  const target = creditedPost(post);
  // The latest onOpen, behind a callback that changes only with the post: the post's body (the
  // largest part of the card) is drawn again only when the post itself changes.
  const onOpenRef = useRef(onOpen);
  useLayoutEffect(() => {
    onOpenRef.current = onOpen;
  });
  const openFromLink = useCallback(() => onOpenRef.current?.(post), [post]);
  // Mute and Block of the '⋯' menu on others' posts (issue 38).
  const safety = useSafetyMenuItems(post.author);
  const reposts = usePostRepost(target, {
    undoRequest: undoRepostRequest,
    onUndone: onRepostUndone ? () => onRepostUndone(target) : undefined,
  });
  const [repostOpen, setRepostOpen] = useState(false);
  const quotes = isRepost(post);
  const sharedComment = isSharedComment(post);
  const repostable = !isRepost(target);
  const href = `/post/${target.id}`;
  const originalAuthor = post.originalPost?.author.name ?? post.author.name;
  // A quote's own images, above the post it quotes (whose images QuotedPost draws).
  const quoteImages = imagesOf(post);

  const open = (state?: OpenPostState) => {
    onOpen?.(post);
    void navigate(href, state ? { state } : undefined);
  };

  const onCardClick = (event: MouseEvent<HTMLElement>) => {
    const target = event.target as Element;
    // Dialogs are portalled out of the card: their clicks bubble through React but not the DOM.
    if (!event.currentTarget.contains(target) || target.closest(INTERACTIVE)) return;
    if (window.getSelection?.()?.toString()) return; // selecting text is not opening
    open();
  };

  const onRepostClick = () => {
    if (reposts.reposted) void reposts.undo();
    else setRepostOpen(true);
  };

  const label = sharedComment
    ? `${post.author.name} commented on ${originalAuthor}'s post`
    : quotes
      ? `${post.author.name} reposted ${originalAuthor}`
      : `Post by ${post.author.name}`;

  return (
    <Article aria-label={label} onClick={onCardClick}>
      {quotes ? (
        <>
          <RepostLine>
            {sharedComment ? <CommentIcon /> : <RepostIcon />}
            <span>
              <Link
                className="actor"
                dir="auto"
                title={post.author.name}
                to={`/profile/${post.author.id}`}
              >
                {post.author.name}
              </Link>{' '}
              <span>{sharedComment ? 'commented' : 'reposted'} ·</span>{' '}
              <Link
                to={href}
                aria-label={openLabel(sharedComment ? 'comment' : 'repost', post.createdAt)}
                onClick={() => onOpen?.(post)}
              >
                <TimeAgo date={post.createdAt} />
              </Link>
              <EditedLabel kind="post" id={post.id} editedAt={post.editedAt} />
            </span>
          </RepostLine>
          {post.repostComment && (
            <Quote dir="auto" aria-label={`${post.author.name}'s comment`}>
              <Linkified text={post.repostComment} mentions={post.mentions} tags />
            </Quote>
          )}
          {quoteImages.length > 0 && <PostImages images={quoteImages} priority={imagePriority} />}
          <Original>
            <QuotedPost post={post} imagePriority={imagePriority && quoteImages.length === 0} />
            {post.originalPost && (
              <Link to={`/post/${post.originalPostId}`} onClick={() => onOpen?.(post)}>
                View original post
              </Link>
            )}
          </Original>
        </>
      ) : (
        <MemoPostBody post={post} href={href} onOpen={openFromLink} imagePriority={imagePriority} />
      )}
      <PostActionBar
        post={target}
        likeRequest={likeRequest}
        onLikeSettled={onLikeChange ? (result) => onLikeChange(post, result) : undefined}
        reposts={reposts}
        repostable={repostable}
        onRepost={onRepostClick}
        onComment={() => open({ focusComment: true })}
        onBookmarkChange={onBookmarkChange ? (result) => onBookmarkChange(post, result) : undefined}
        indent
      >
        <PostMenu post={post} triggerRef={safety.triggerRef} otherItems={safety.items} />
        {safety.dialogs}
      </PostActionBar>
      {user && repostable && (
        <RepostDialog
          post={target}
          open={repostOpen}
          onOpenChange={setRepostOpen}
          request={repostRequest}
          onReposted={(created) => {
            reposts.markReposted();
            onReposted?.(created, target);
          }}
        />
      )}
    </Article>
  );
}

const MemoPostBody = memo(PostBody);
