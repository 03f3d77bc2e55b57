import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import type { Comment } from '@campus/contracts';
import { TimeAgo } from '@campus/kit/format';
import { usePostLike } from '@campus/kit/post-card';
import { ReportMenu } from '@campus/kit/report';
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

function CommentItem({
  postId,
  comment,
  topLevelId,
  onPosted,
  children,
}: {
  postId: number;
  comment: Comment;
  /** Replies attach to the top-level comment (one level, spec §2). */
  topLevelId: number;
  onPosted: (sharedToTimeline: boolean) => void;
  children?: ReactNode;
}) {
  const [replying, setReplying] = useState(false);
  return (
    <Item aria-label={`Comment by ${comment.author.name}`}>
      <Head>
        <Avatar name={comment.author.name} src={comment.author.avatarUrl} size={32} />
        <Link dir="auto" title={comment.author.name} to={`/profile/${comment.author.id}`}>
          {comment.author.name}
        </Link>
        <TimeAgo date={comment.createdAt} />
      </Head>
      <Text text={comment.content} />
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
        <ReportMenu
          targetType="comment"
          targetId={comment.id}
          authorId={comment.author.id}
          authorName={comment.author.name}
          label="Report"
          menuLabel={`More actions for the comment by ${comment.author.name}`}
        />
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
}: {
  postId: number;
  comments: Comment[];
  onPosted: (sharedToTimeline: boolean) => void;
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
        >
          {comment.replies && comment.replies.length > 0 && (
            <List aria-label={`Replies to ${comment.author.name}`}>
              {comment.replies.map((reply) => (
                <CommentItem
                  key={reply.id}
                  postId={postId}
                  comment={reply}
                  topLevelId={comment.id}
                  onPosted={onPosted}
                />
              ))}
            </List>
          )}
        </CommentItem>
      ))}
    </List>
  );
}
