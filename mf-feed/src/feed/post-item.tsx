import { Link } from 'react-router-dom';
import styled from 'styled-components';
import type { Post } from '@campus/contracts';
import { handleFromEmail, relativeTime } from '@campus/kit/format';
import { Avatar, Badge } from '@campus/kit/ui';

const Article = styled.article`
  display: flex;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => theme.space(4)};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
`;

const Body = styled.div`
  flex: 1;
  min-width: 0;
  display: grid;
  gap: ${({ theme }) => theme.space(1.5)};
`;

const Meta = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(2)};
  align-items: center;
  font-size: 0.875rem;
  color: ${({ theme }) => theme.colors.textMuted};

  a {
    color: ${({ theme }) => theme.colors.text};
    font-weight: 700;
    text-decoration: none;
  }
`;

const Content = styled(Link)`
  display: -webkit-box;
  -webkit-line-clamp: 5;
  -webkit-box-orient: vertical;
  overflow: hidden;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
  text-decoration: none;
`;

const Counts = styled.p`
  display: flex;
  gap: ${({ theme }) => theme.space(4)};
  margin: 0;
  font-size: 0.8125rem;
  color: ${({ theme }) => theme.colors.textMuted};
`;

/** One post of the feed: author, clamped content, JD badge and counts; opens /post/{id}. */
export function PostItem({ post }: { post: Post }) {
  const shown = post.originalPost ?? post;
  return (
    <Article aria-label={`Post by ${shown.author.name}`}>
      <Avatar name={shown.author.name} src={shown.author.avatarUrl} />
      <Body>
        {post.originalPost && (
          <Meta>
            <span>
              {post.author.name} reposted{post.repostComment ? `: ${post.repostComment}` : ''}
            </span>
          </Meta>
        )}
        <Meta>
          <Link to={`/profile/${shown.author.id}`}>{shown.author.name}</Link>
          <span>{handleFromEmail(shown.author.email)}</span>
          <span>· {relativeTime(shown.createdAt)}</span>
          {shown.isJdTagged && <Badge $tone="primary">JD</Badge>}
        </Meta>
        <Content to={`/post/${shown.id}`}>{shown.content}</Content>
        <Counts>
          <span>{post.likesCount} likes</span>
          <span>{post.commentsCount} comments</span>
          <span>{post.repostsCount} reposts</span>
        </Counts>
      </Body>
    </Article>
  );
}
