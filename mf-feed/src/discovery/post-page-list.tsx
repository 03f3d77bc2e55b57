import type { ReactNode } from 'react';
import type { BookmarkResponse, Post } from '@campus/contracts';
import styled from 'styled-components';
import { ApiError, failureDescription } from '@campus/kit/api';
import { PostCard, PostCardSkeleton } from '@campus/kit/post-card';
import { Button, EmptyState, visuallyHidden } from '@campus/kit/ui';
import type { usePostPages } from './post-pages';

const Footer = styled.div`
  display: grid;
  justify-items: center;
  gap: ${({ theme }) => theme.space(2)};
  padding: ${({ theme }) => theme.space(6)} ${({ theme }) => theme.space(4)};
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: 0.875rem;
`;

export interface PostPageListProps {
  list: ReturnType<typeof usePostPages>;
  /** What the list is, for the loading announcement and the list's label ('Search results'). */
  label: string;
  /** What an empty list shows. */
  empty: ReactNode;
  /** What a failed first page says. */
  failed: string;
  /** A post's bookmark settled on the server's answer (the Bookmarks page drops a removed one). */
  onBookmarkChange?: (post: Post, result: BookmarkResponse) => void;
}

/** Why a list failed: the API's own words for a 400 (a search it refuses) or a 429, if any. */
function failureReason(error: Error): string | undefined {
  if (error instanceof ApiError && error.status === 400) return error.serverMessage;
  const reason = failureDescription(error, '');
  return reason || undefined;
}

/**
 * The posts of a cursor-paged list with the feed's cards and actions: skeletons while the first
 * page loads, a retry when it fails, the empty state, then "Load more posts" until the last page
 * ("No more posts"). A page that fails after the first keeps what is shown and offers it again.
 */
export function PostPageList({ list, label, empty, failed, onBookmarkChange }: PostPageListProps) {
  if (list.error) {
    return (
      <EmptyState
        title={failed}
        description={failureReason(list.error)}
        action={
          <Button variant="secondary" onClick={list.refresh}>
            Retry
          </Button>
        }
      />
    );
  }
  if (list.loading) {
    return (
      <div aria-busy="true">
        <span style={visuallyHidden}>Loading {label.toLowerCase()}</span>
        {[0, 1, 2].map((row) => (
          <PostCardSkeleton key={row} />
        ))}
      </div>
    );
  }
  if (list.posts.length === 0) return <EmptyState description={empty} />;
  return (
    <>
      <section aria-label={label} aria-busy={list.loadingMore || undefined}>
        {list.posts.map((post, index) => (
          <PostCard
            key={post.id}
            post={post}
            onReposted={list.refresh}
            onBookmarkChange={onBookmarkChange}
            imagePriority={index === 0}
          />
        ))}
      </section>
      <Footer>
        {list.loadMoreFailed && <span role="alert">Failed to load more posts.</span>}
        {list.hasMore || list.loadMoreFailed ? (
          <Button
            variant="secondary"
            disabled={list.loadingMore}
            aria-busy={list.loadingMore || undefined}
            onClick={list.loadMore}
          >
            Load more posts
          </Button>
        ) : (
          <span>No more posts</span>
        )}
      </Footer>
    </>
  );
}
