import { Link, useNavigate, useParams } from 'react-router-dom';
import styled from 'styled-components';
import useSWR from 'swr';
import type { Comment, PostDetail } from '@campus/contracts';
import { ApiError } from '@campus/kit/api';
import { keys } from '@campus/kit/data';
import { handleFromEmail, relativeTime } from '@campus/kit/format';
import { Avatar, Badge, Button, EmptyState, Skeleton } from '@campus/kit/ui';

const Page = styled.article`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
  padding: ${({ theme }) => theme.space(4)};
`;

const Author = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space(3)};
  align-items: center;

  a {
    font-weight: 700;
    text-decoration: none;
  }
  span {
    color: ${({ theme }) => theme.colors.textMuted};
    font-size: 0.875rem;
  }
`;

const Content = styled.p`
  margin: 0;
  font-size: 1.0625rem;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
`;

const Counts = styled.p`
  display: flex;
  gap: ${({ theme }) => theme.space(4)};
  margin: 0;
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: 0.875rem;
`;

const Comments = styled.ul`
  display: grid;
  gap: ${({ theme }) => theme.space(3)};
  margin: 0;
  padding: 0;
  list-style: none;

  ul {
    margin-top: ${({ theme }) => theme.space(3)};
    padding-left: ${({ theme }) => theme.space(6)};
  }
`;

function CommentItem({ comment }: { comment: Comment }) {
  return (
    <li>
      <Author>
        <Avatar name={comment.author.name} src={comment.author.avatarUrl} size={32} />
        <Link to={`/profile/${comment.author.id}`}>{comment.author.name}</Link>
        <span>{relativeTime(comment.createdAt)}</span>
      </Author>
      <p style={{ margin: '4px 0 0 44px' }}>{comment.content}</p>
      {comment.replies && comment.replies.length > 0 && (
        <Comments>
          {comment.replies.map((reply) => (
            <CommentItem key={reply.id} comment={reply} />
          ))}
        </Comments>
      )}
    </li>
  );
}

/** Spec §2 "Post detail" (/post/:id): back, loading, not found, the post and its comments. */
export default function PostDetailPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const postId = Number(id);
  const {
    data: post,
    error,
    isLoading,
  } = useSWR<PostDetail | null, Error>(
    Number.isInteger(postId) && postId > 0 ? keys.post(postId) : null,
  );
  const back = () => (window.history.length > 1 ? navigate(-1) : navigate('/'));

  const header = (
    <div>
      <Button variant="ghost" onClick={back}>
        ← Back
      </Button>
    </div>
  );

  if (isLoading) {
    return (
      <Page aria-busy="true">
        {header}
        <Skeleton $height="40px" $width="50%" />
        <Skeleton $height="96px" />
      </Page>
    );
  }
  if (!post || (error instanceof ApiError && error.status === 404) || error) {
    return (
      <Page>
        {header}
        <EmptyState
          title="Post not found"
          description="This post doesn't exist or has been deleted."
        />
      </Page>
    );
  }
  return (
    <Page aria-label={`Post by ${post.author.name}`}>
      {header}
      <Author>
        <Avatar name={post.author.name} src={post.author.avatarUrl} />
        <div style={{ display: 'grid' }}>
          <Link to={`/profile/${post.author.id}`}>{post.author.name}</Link>
          <span>
            {handleFromEmail(post.author.email)} · {relativeTime(post.createdAt)}
          </span>
        </div>
        {post.isJdTagged && <Badge $tone="primary">JD</Badge>}
      </Author>
      <Content>{post.content}</Content>
      <Counts>
        <span>{post.likesCount} likes</span>
        <span>{post.commentsCount} comments</span>
        <span>{post.repostsCount} reposts</span>
      </Counts>
      <section aria-label="Comments">
        <Comments>
          {post.comments.map((comment) => (
            <CommentItem key={comment.id} comment={comment} />
          ))}
        </Comments>
      </section>
    </Page>
  );
}
