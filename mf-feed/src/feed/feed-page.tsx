import { useState } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import useSWRInfinite from 'swr/infinite';
import { FEED_PAGE_SIZE, type Post } from '@campus/contracts';
import { getJson } from '@campus/kit/api';
import { keys } from '@campus/kit/data';
import { useAppEvent } from '@campus/kit/events';
import { useSession } from '@campus/kit/session';
import { Badge, Button, EmptyState, Skeleton, Tabs } from '@campus/kit/ui';
import { PostItem } from './post-item';

type FeedTab = 'for-you' | 'following' | 'jd';

const TAB_STORAGE_KEY = 'campus.feed.tab';

const EMPTY_TEXT: Record<FeedTab, string> = {
  'for-you': 'Be the first to post something!',
  following: 'Follow some users to see their posts here',
  jd: 'No job or admission posts available',
};

const Footer = styled.div`
  display: flex;
  justify-content: center;
  padding: ${({ theme }) => theme.space(4)};
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: 0.875rem;
`;

const Banner = styled(Link)`
  display: grid;
  gap: ${({ theme }) => theme.space(1)};
  margin: ${({ theme }) => theme.space(4)};
  padding: ${({ theme }) => theme.space(4)};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.colors.primary};
  color: ${({ theme }) => theme.colors.onPrimary};
  text-decoration: none;
`;

function readTab(): FeedTab {
  const stored = window.sessionStorage.getItem(TAB_STORAGE_KEY);
  return stored === 'following' || stored === 'jd' ? stored : 'for-you';
}

function feedPath(tab: FeedTab, userId: number | undefined, page: number): string {
  const query = new URLSearchParams();
  if (tab !== 'for-you') query.set('tab', tab);
  if (userId !== undefined) query.set('userId', String(userId));
  query.set('limit', String(FEED_PAGE_SIZE));
  query.set('offset', String(page * FEED_PAGE_SIZE));
  return `/api/posts?${query.toString()}`;
}

/** Spec §2 "Home feed": the three tabs, the posts, their empty states and paging. */
export default function FeedPage() {
  const { user } = useSession();
  const [tab, setTab] = useState<FeedTab>(readTab);
  const { data, error, isLoading, size, setSize, mutate } = useSWRInfinite<Post[] | null>(
    (page, previous) =>
      previous && previous.length < FEED_PAGE_SIZE ? null : keys.feedPage(tab, page),
    (key: ReturnType<typeof keys.feedPage>) => getJson<Post[]>(feedPath(tab, user?.id, key[3])),
    { revalidateFirstPage: false },
  );
  useAppEvent('postCreated', () => void mutate());
  useAppEvent('postDeleted', () => void mutate());

  const select = (next: FeedTab) => {
    if (next === tab) {
      window.scrollTo({ top: 0, behavior: 'smooth' });
      return;
    }
    window.sessionStorage.setItem(TAB_STORAGE_KEY, next);
    setTab(next);
  };

  const pages = data ?? [];
  const posts = pages.flatMap((page) => page ?? []);
  const lastPage = pages[pages.length - 1];
  const reachedEnd = lastPage !== undefined && (lastPage?.length ?? 0) < FEED_PAGE_SIZE;
  const loadingMore = size > pages.length;

  return (
    <section aria-label="Home feed">
      <Tabs
        label="Feed"
        idPrefix="feed"
        value={tab}
        onSelect={select}
        items={[
          { value: 'for-you', label: 'For You' },
          { value: 'following', label: 'Following' },
          {
            value: 'jd',
            label: (
              <>
                JD <Badge $tone="primary">Jobs</Badge>
              </>
            ),
          },
        ]}
      />
      <div id="feed-panel" role="tabpanel" aria-labelledby={`feed-${tab}`}>
        {tab === 'jd' && (
          <Banner to="/opportunities">
            <strong>Explore Opportunities</strong>
            <span>Swipe through personalised job recommendations</span>
          </Banner>
        )}
        {error ? (
          <EmptyState title="Failed to fetch posts" />
        ) : isLoading ? (
          <div aria-busy="true" style={{ display: 'grid', gap: 16, padding: 16 }}>
            {[0, 1, 2].map((row) => (
              <Skeleton key={row} $height="88px" />
            ))}
          </div>
        ) : posts.length === 0 ? (
          <EmptyState description={EMPTY_TEXT[tab]} />
        ) : (
          <>
            {posts.map((post) => (
              <PostItem key={post.id} post={post} />
            ))}
            <Footer>
              {reachedEnd ? (
                'No more posts'
              ) : (
                <Button
                  variant="secondary"
                  disabled={loadingMore}
                  onClick={() => void setSize(size + 1)}
                >
                  Load more posts
                </Button>
              )}
            </Footer>
          </>
        )}
      </div>
    </section>
  );
}
