import { startTransition, useEffect, useState } from 'react';
import styled from 'styled-components';
import type { Post } from '@campus/contracts';
import { PostCard } from '@campus/kit/post-card';
import { EmptyState } from '@campus/kit/ui';

const Title = styled.h2`
  margin: 0;
  padding: ${({ theme }) => theme.space(3)} ${({ theme }) => theme.space(4)};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  font-size: 1rem;
`;

const List = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
`;

/**
 * Cards drawn when the list first shows posts (a profile holds up to 100); the others are drawn
 * right after, in the background (a transition), so the first ones are painted without waiting
 * for all of them. They only ever add below.
 */
const FIRST_CARDS = 6;

/** The Posts list of a profile, with the kit's post card (the same one the feed shows). */
export function ProfilePosts({
  posts,
  emptyText,
  onChanged,
}: {
  posts: readonly Post[];
  emptyText: string;
  /** After a repost from this list: the profile is refetched. */
  onChanged: () => void;
}) {
  const [allCards, setAllCards] = useState(false);
  const hasPosts = posts.length > 0;
  useEffect(() => {
    if (hasPosts && !allCards) startTransition(() => setAllCards(true));
  }, [hasPosts, allCards]);
  const cards = allCards ? posts : posts.slice(0, FIRST_CARDS);
  return (
    <section aria-labelledby="profile-posts-title">
      <Title id="profile-posts-title">Posts</Title>
      {posts.length === 0 ? (
        <EmptyState description={emptyText} />
      ) : (
        <List>
          {cards.map((post) => (
            <li key={post.id}>
              <PostCard post={post} onReposted={onChanged} />
            </li>
          ))}
        </List>
      )}
    </section>
  );
}
