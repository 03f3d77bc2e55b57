import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import styled from 'styled-components';
import type { PostDetail } from '@campus/contracts';
import { keys, useCallData } from '@campus/kit/data';
import { emitAppEvent } from '@campus/kit/events';
import { TimeAgo } from '@campus/kit/format';
import { EditedLabel, PostMenu } from '@campus/kit/own-words';
import {
  PostBody,
  PostImages,
  imagesOf,
  QuotedPost,
  RepostDialog,
  isPlainRepost,
  isRepost,
  isSharedComment,
  PostActionBar,
  usePostLike,
  usePostRepost,
  type OpenPostState,
} from '@campus/kit/post-card';
import { useSafetyMenuItems } from '@campus/kit/safety';
import { useSession } from '@campus/kit/session';
import { Linkified } from '@campus/kit/text';
import { EmptyState, Skeleton } from '@campus/kit/ui';
import { TouchButton } from '../touch-button';
import { CommentForm } from './comment-form';
import { CommentList } from './comment-list';
import { DeletePostButton } from './delete-post-button';
import { useLinkedComment } from './linked-comment';
import { useMoreComments } from './more-comments';

const Page = styled.article`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
  padding: ${({ theme }) => theme.space(4)};
`;

const Header = styled.div`
  display: flex;
  justify-content: space-between;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
`;

const RepostLine = styled.p`
  margin: 0;
  font-size: 0.875rem;
  color: ${({ theme }) => theme.colors.textMuted};

  a {
    color: inherit;
    font-weight: 600;
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
    font-size: 0.8125rem;
    font-weight: 600;
    color: ${({ theme }) => theme.colors.primary};
  }
`;

const Counts = styled.p`
  display: flex;
  gap: ${({ theme }) => theme.space(4)};
  margin: 0;
  padding: ${({ theme }) => theme.space(3)} 0;
  border-top: 1px solid ${({ theme }) => theme.colors.border};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: 0.875rem;

  strong {
    color: ${({ theme }) => theme.colors.text};
  }
`;

const CommentsSection = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};

  h2 {
    margin: 0;
    font-size: 1rem;
  }
`;

const NoComments = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: 0.875rem;
`;

const plural = (count: number, one: string) => (count === 1 ? one : `${one}s`);

function LoadedPost({ post, onChanged }: { post: PostDetail; onChanged: () => void }) {
  const { user } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  // Mute and Block of the '⋯' menu when the post is someone else's (issue 38).
  const safety = useSafetyMenuItems(post.author);
  const like = usePostLike(post);
  const reposts = usePostRepost(post, { onUndone: onChanged });
  const [repostOpen, setRepostOpen] = useState(false);
  const commentField = useRef<HTMLTextAreaElement>(null);
  const repost = isRepost(post);
  const sharedComment = isSharedComment(post);

  // Opened from a card's Comment button: the comment box is where the member is going.
  const focusComment = (location.state as OpenPostState | null)?.focusComment === true;
  useEffect(() => {
    if (focusComment) commentField.current?.focus();
  }, [focusComment]);

  const more = useMoreComments(post);
  // Opened from a comment notification (`#comment-<id>`): that comment, scrolled to and marked.
  const linked = useLinkedComment(more);

  const onCommentPosted = (sharedToTimeline: boolean) => {
    onChanged();
    if (sharedToTimeline) emitAppEvent('postCreated', {});
  };

  const onRepostClick = () => {
    if (reposts.reposted) void reposts.undo();
    else setRepostOpen(true);
  };

  return (
    <>
      {repost ? (
        <>
          <RepostLine>
            <Link to={`/profile/${post.author.id}`} dir="auto">
              {post.author.name}
            </Link>{' '}
            {sharedComment ? 'commented' : 'reposted'} · <TimeAgo date={post.createdAt} />{' '}
            <EditedLabel kind="post" id={post.id} editedAt={post.editedAt} />
          </RepostLine>
          {post.repostComment && (
            <Quote dir="auto" aria-label={`${post.author.name}'s comment`}>
              <Linkified text={post.repostComment} mentions={post.mentions} tags />
            </Quote>
          )}
          {imagesOf(post).length > 0 && <PostImages images={imagesOf(post)} priority />}
          <Original>
            <QuotedPost post={post} clamp={false} imagePriority={imagesOf(post).length === 0} />
            {post.originalPost && (
              <Link to={`/post/${post.originalPostId}`}>View original post</Link>
            )}
          </Original>
        </>
      ) : (
        <PostBody post={post} clamp={false} imagePriority />
      )}
      <Counts>
        <span>
          <strong>{like.likesCount}</strong> {plural(like.likesCount, 'like')}
        </span>
        <span>
          <strong>{post.commentsCount}</strong> {plural(post.commentsCount, 'comment')}
        </span>
        <span>
          <strong>{reposts.repostsCount}</strong> {plural(reposts.repostsCount, 'repost')}
        </span>
      </Counts>
      <PostActionBar
        post={post}
        like={like}
        reposts={reposts}
        repostable={!repost}
        onRepost={onRepostClick}
        onComment={() => commentField.current?.focus()}
      >
        <PostMenu
          post={post}
          onEdited={onChanged}
          onDeleted={() => void navigate('/', { replace: true })}
          triggerRef={safety.triggerRef}
          otherItems={safety.items}
        />
        {safety.dialogs}
      </PostActionBar>
      {user && !repost && (
        <RepostDialog
          post={post}
          open={repostOpen}
          onOpenChange={setRepostOpen}
          onReposted={() => {
            reposts.markReposted();
            onChanged();
            emitAppEvent('postCreated', {});
          }}
        />
      )}
      <CommentsSection aria-labelledby="comments-title">
        <h2 id="comments-title">Comments</h2>
        <CommentForm postId={post.id} fieldRef={commentField} onPosted={onCommentPosted} />
        <CommentList
          postId={post.id}
          comments={more.comments}
          onPosted={onCommentPosted}
          onChanged={onChanged}
          highlightedId={linked.highlightedId}
        />
        {more.comments.length === 0 && !more.hasMore && <NoComments>No comments yet</NoComments>}
        {more.hasMore && (
          <TouchButton
            variant="ghost"
            size="sm"
            aria-busy={more.loading}
            disabled={more.loading}
            onClick={() => void more.loadMore()}
          >
            Load more comments
          </TouchButton>
        )}
        {more.failed && <p role="alert">Failed to load more comments. Please try again.</p>}
        {linked.missing && <p role="status">The comment you followed is no longer here.</p>}
      </CommentsSection>
    </>
  );
}

/**
 * Spec §2 "Post detail" (/post/:id): Back, a skeleton, 'Post not found', or the post. Its actions
 * are the feed's action bar (issue 41): Comment focuses the comment box; Repost opens the repost
 * dialog (or withdraws the member's repost). A plain repost or a shared comment opens its
 * original instead (replacing the history entry), keeping a link's `#comment-<id>`.
 */
export default function PostDetailPage() {
  const { id } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const postId = Number(id);
  const valid = Number.isInteger(postId) && postId > 0;
  const {
    data: post,
    error,
    mutate,
  } = useCallData(valid ? keys.post(postId) : null, { revalidateOnMount: true });
  // The first entry of this tab's history has the key 'default': there is nothing to go back to.
  const back = () => void (location.key !== 'default' ? navigate(-1) : navigate('/'));

  // The author's Delete (spec §2) sits up here, so the action bar is the same on every post.
  const header = (
    <Header>
      <TouchButton variant="ghost" size="sm" onClick={back}>
        ← Back
      </TouchButton>
      {post?.canDelete && <DeletePostButton postId={post.id} />}
    </Header>
  );

  if (valid && !error && post === undefined) {
    return (
      <Page aria-busy="true" aria-label="Loading post">
        {header}
        <Skeleton $height="40px" $width="50%" />
        <Skeleton $height="96px" />
        <Skeleton $height="24px" $width="70%" />
      </Page>
    );
  }
  if (!post) {
    return (
      <Page aria-label="Post not found">
        {header}
        <EmptyState
          title="Post not found"
          description="This post doesn't exist or has been deleted."
        />
      </Page>
    );
  }
  // A plain repost or a shared comment credits its original: its thread and counts are there.
  if ((isPlainRepost(post) || isSharedComment(post)) && post.originalPost) {
    // The link's `#comment-<id>` goes along: the comment is in the original's thread.
    return (
      <Navigate
        to={{ pathname: `/post/${post.originalPost.id}`, hash: location.hash }}
        replace
        state={location.state}
      />
    );
  }
  return (
    <Page aria-label={`Post by ${post.author.name}`}>
      {header}
      <LoadedPost post={post} onChanged={() => void mutate()} />
    </Page>
  );
}
