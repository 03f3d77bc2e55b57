import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import type { Comment } from '@campus/contracts';
import { TimeAgo } from '@campus/kit/format';
import { usePostLike } from '@campus/kit/post-card';
import { CommentMenu, EditedLabel } from '@campus/kit/own-words';
import { useSafetyMenuItems } from '@campus/kit/safety';
import { UserText } from '@campus/kit/text';
import { mediaMobile } from '@campus/kit/theme';
import { Avatar } from '@campus/kit/ui';
import { CommentForm } from './comment-form';
import { toggleCommentLike } from './post-detail-requests';

const List = styled.ul`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
  margin: 0;
  padding: 0;
  list-style: none;

  ul {
    margin-top: ${({ theme }) => theme.space(3)};
    padding-left: ${({ theme }) => theme.space(6)};
    border-left: 2px solid ${({ theme }) => theme.colors.border};
  }
`;

const Item = styled.li`
  display: grid;
  gap: ${({ theme }) => theme.space(1)};

  /* The comment a notification linked to (#comment-<id>, issue 41). */
  &[data-linked] {
    margin: -${({ theme }) => theme.space(2)};
    padding: ${({ theme }) => theme.space(2)};
    border-radius: ${({ theme }) => theme.radius.md};
    background: ${({ theme }) => theme.colors.surfaceMuted};
    box-shadow: inset 3px 0 0 ${({ theme }) => theme.colors.primary};
  }
  &[data-linked] > ul {
    background: ${({ theme }) => theme.colors.surface};
  }
`;

const Head = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space(2)};
  align-items: center;
  font-size: 0.875rem;

  min-width: 0;

  a {
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-weight: 700;
    color: ${({ theme }) => theme.colors.text};
    text-decoration: none;
  }
  time {
    flex-shrink: 0;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const Text = styled(UserText)`
  margin: 0 0 0 40px;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
`;

const Placeholder = styled.p`
  margin: 0;
  padding: ${({ theme }) => theme.space(2)} ${({ theme }) => theme.space(3)};
  border: 1px dashed ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.md};
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: 0.875rem;
  font-style: italic;
`;

const Actions = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space(3)};
  margin-left: 40px;

  button {
    padding: 0;
    border: 0;
    background: none;
    font: inherit;
    font-size: 0.8125rem;
    color: ${({ theme }) => theme.colors.textMuted};
    cursor: pointer;
  }
  button[aria-pressed='true'] {
    color: ${({ theme }) => theme.colors.danger};
    font-weight: 600;
  }

  ${mediaMobile} {
    margin-left: 28px;
    button {
      min-width: 44px;
      min-height: 44px;
    }
  }
`;

function CommentLike({ comment }: { comment: Comment }) {
  const like = usePostLike(comment, { request: toggleCommentLike });
  return (
    <button
      type="button"
      aria-pressed={like.liked}
      aria-label={`Like comment by ${comment.author.name} (${like.likesCount} ${like.likesCount === 1 ? 'like' : 'likes'})`}
      onClick={() => void like.toggle()}
    >
      ♥ {like.likesCount}
    </button>
  );
}

/** The comment's '⋯' menu, with Mute and Block of its author when it is someone else's (issue 38). */
function OthersAwareCommentMenu({
  postId,
  comment,
  onChanged,
}: {
  postId: number;
  comment: Comment;
  onChanged: () => void;
}) {
  const safety = useSafetyMenuItems(comment.author);
  return (
    <>
      <CommentMenu
        postId={postId}
        comment={comment}
        onChanged={onChanged}
        triggerRef={safety.triggerRef}
        otherItems={safety.items}
      />
      {safety.dialogs}
    </>
  );
}

function CommentItem({
  postId,
  comment,
  topLevelId,
  onPosted,
  onChanged,
  highlightedId,
  children,
}: {
  postId: number;
  comment: Comment;
  /** The comment a `#comment-<id>` link points at: highlighted, and focusable to be focused. */
  highlightedId?: number | null;
  /** Replies attach to the top-level comment (one level, spec §2). */
  topLevelId: number;
  onPosted: (sharedToTimeline: boolean) => void;
  /** After the comment was edited or deleted. */
  onChanged: () => void;
  children?: ReactNode;
}) {
  const [replying, setReplying] = useState(false);
  const linked = comment.id === highlightedId ? { 'data-linked': '', tabIndex: -1 } : ({} as const);
  if (comment.deleted) {
    // Deleted by its author while it had replies: its place stays, so they keep their context.
    return (
      <Item id={`comment-${comment.id}`} aria-label="Deleted comment" {...linked}>
        <Placeholder>This comment was deleted.</Placeholder>
        {children}
      </Item>
    );
  }
  return (
    <Item id={`comment-${comment.id}`} aria-label={`Comment by ${comment.author.name}`} {...linked}>
      <Head>
        <Avatar name={comment.author.name} src={comment.author.avatarUrl} size={32} />
        <Link dir="auto" title={comment.author.name} to={`/profile/${comment.author.id}`}>
          {comment.author.name}
        </Link>
        <TimeAgo date={comment.createdAt} />
        <EditedLabel kind="comment" id={comment.id} editedAt={comment.editedAt} />
      </Head>
      <Text text={comment.content} mentions={comment.mentions} tags />
      <Actions>
        <CommentLike comment={comment} />
        <button
          type="button"
          aria-expanded={replying}
          aria-label={`Reply to ${comment.author.name}`}
          onClick={() => setReplying((value) => !value)}
        >
          Reply
        </button>
        <OthersAwareCommentMenu postId={postId} comment={comment} onChanged={onChanged} />
      </Actions>
      {replying && (
        <div style={{ marginLeft: 40 }}>
          <CommentForm
            postId={postId}
            parentId={topLevelId}
            replyingTo={comment.author.name}
            autoFocus
            onPosted={(shared) => {
              setReplying(false);
              onPosted(shared);
            }}
          />
        </div>
      )}
      {children}
    </Item>
  );
}

/** Spec §2: comments oldest first, each with one level of replies and a like. */
export function CommentList({
  postId,
  comments,
  onPosted,
  onChanged,
  highlightedId,
}: {
  postId: number;
  comments: Comment[];
  onPosted: (sharedToTimeline: boolean) => void;
  /** After a comment was edited or deleted by its author (read the thread again). */
  onChanged: () => void;
  /** The comment a `#comment-<id>` link points at (issue 41). */
  highlightedId?: number | null;
}) {
  if (comments.length === 0) return null;
  return (
    <List>
      {comments.map((comment) => (
        <CommentItem
          key={comment.id}
          postId={postId}
          comment={comment}
          topLevelId={comment.id}
          onPosted={onPosted}
          onChanged={onChanged}
          highlightedId={highlightedId}
        >
          {comment.replies && comment.replies.length > 0 && (
            <List
              aria-label={
                comment.deleted
                  ? 'Replies to a deleted comment'
                  : `Replies to ${comment.author.name}`
              }
            >
              {comment.replies.map((reply) => (
                <CommentItem
                  key={reply.id}
                  postId={postId}
                  comment={reply}
                  topLevelId={comment.id}
                  onPosted={onPosted}
                  onChanged={onChanged}
                  highlightedId={highlightedId}
                />
              ))}
            </List>
          )}
        </CommentItem>
      ))}
    </List>
  );
}
