import { Link } from 'react-router-dom';
import styled from 'styled-components';
import type { Post } from '@campus/contracts';
import { relativeTime } from '@campus/kit/format';
import { Badge, EmptyState } from '@campus/kit/ui';

const List = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;

  li {
    display: grid;
    gap: ${({ theme }) => theme.space(1)};
    padding: ${({ theme }) => theme.space(4)};
    border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  }
  a {
    text-decoration: none;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  small {
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

/** The Posts list of a profile. */
export function ProfilePosts({ posts, emptyText }: { posts: readonly Post[]; emptyText: string }) {
  return (
    <section aria-labelledby="profile-posts-title">
      <h2 id="profile-posts-title" style={{ margin: 0, padding: '12px 16px', fontSize: '1rem' }}>
        Posts
      </h2>
      {posts.length === 0 ? (
        <EmptyState description={emptyText} />
      ) : (
        <List>
          {posts.map((post) => (
            <li key={post.id}>
              <Link to={`/post/${post.originalPost?.id ?? post.id}`}>
                {post.originalPost?.content ?? post.content}
              </Link>
              <small>
                {relativeTime(post.createdAt)} · {post.likesCount} likes · {post.commentsCount}{' '}
                comments
                {post.isJdTagged && (
                  <>
                    {' '}
                    <Badge $tone="primary">JD</Badge>
                  </>
                )}
              </small>
            </li>
          ))}
        </List>
      )}
    </section>
  );
}
