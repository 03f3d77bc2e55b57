import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { FEED_TABS, type FeedTab, type Post } from '@campus/contracts';
import { useAppEvent } from '@campus/kit/events';
import { PostCard, PostCardSkeleton } from '@campus/kit/post-card';
import { Badge, Button, EmptyState, Tabs } from '@campus/kit/ui';
import {
  readRememberedTab,
  rememberTab,
  saveFeedPosition,
  takeFeedPosition,
  type SavedFeedPosition,
} from './scroll-restoration';
import { useFeed } from './use-feed';

const EMPTY_TEXT: Record<FeedTab, string> = {
  'for-you': 'Be the first to post something!',
  following: 'Follow some users to see their posts here',
  jd: 'No job or admission posts available',
};
const TOP_EMPTY_TEXT =
  'No trending posts today. Try posting something to get the conversation started!';

const Toolbar = styled.div`
  display: flex;
  justify-content: flex-end;
  padding: ${({ theme }) => theme.space(2)} ${({ theme }) => theme.space(4)};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
`;

const Footer = styled.div`
  display: grid;
  justify-items: center;
  gap: ${({ theme }) => theme.space(2)};
  padding: ${({ theme }) => theme.space(6)} ${({ theme }) => theme.space(4)};
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: 0.875rem;
`;

const LinkButton = styled.button`
  padding: 0;
  border: 0;
  background: none;
  font: inherit;
  font-weight: 600;
  color: ${({ theme }) => theme.colors.primary};
  cursor: pointer;
  text-decoration: underline;
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

  span {
    font-size: 0.875rem;
  }
`;

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

const TAB_LABELS: Record<FeedTab, ReactNode> = {
  'for-you': 'For You',
  following: 'Following',
  jd: (
    <>
      JD <Badge $tone="primary">Jobs</Badge>
    </>
  ),
};
const TAB_ITEMS = FEED_TABS.map((value) => ({ value, label: TAB_LABELS[value] }));

/**
 * Spec §2 "Home feed": three tabs (remembered for the session), the Top Posts filter on For You,
 * the JD banner, skeletons, empty states, paging by 20, refresh on postCreated / postDeleted, and
 * the scroll position restored when coming back from a post within 30 minutes.
 */
export default function FeedPage() {
  const [restore] = useState<SavedFeedPosition | null>(() => takeFeedPosition());
  const [tab, setTab] = useState<FeedTab>(() => restore?.tab ?? readRememberedTab());
  const [top, setTop] = useState(() => Boolean(restore?.top && restore.tab === 'for-you'));
  const topActive = tab === 'for-you' && top;
  const feed = useFeed({ tab, top: topActive });

  useAppEvent('postCreated', () => void feed.refresh());
  useAppEvent('postDeleted', ({ postId }) => {
    feed.hide(postId);
    void feed.refresh();
  });

  // Coming back from a post: reload the extra pages, then scroll to where the reader was.
  const pendingRestore = useRef(restore);
  const scrollTarget = useRef<number | null>(null);
  const [restored, setRestored] = useState(0);
  const { loaded, loadExtraPages } = feed;
  useEffect(() => {
    const saved = pendingRestore.current;
    if (!saved || !loaded) return;
    pendingRestore.current = null;
    const scroll = () => {
      scrollTarget.current = saved.scrollY;
      setRestored((count) => count + 1);
    };
    if (saved.extraPages > 0 && !(saved.tab === 'for-you' && saved.top)) {
      loadExtraPages(saved.extraPages)
        .catch((error: unknown) => console.error('Failed to restore posts', error))
        .finally(scroll);
    } else {
      scroll();
    }
  }, [loaded, loadExtraPages]);
  useLayoutEffect(() => {
    if (scrollTarget.current === null) return;
    window.scrollTo({ top: scrollTarget.current, behavior: 'instant' });
    scrollTarget.current = null;
  }, [restored]);

  const select = (next: FeedTab) => {
    if (next === tab) {
      window.scrollTo({ top: 0, behavior: 'smooth' });
      return;
    }
    pendingRestore.current = null;
    rememberTab(next);
    setTab(next);
    if (next !== 'for-you') setTop(false); // spec §4: leaving For You turns Top Posts off
  };

  const onOpen = (_post: Post) =>
    saveFeedPosition({
      tab,
      top: topActive,
      scrollY: window.scrollY,
      extraPages: feed.extraPageCount,
    });

  const returnToForYou = () => setTop(false);

  let body;
  if (feed.error) {
    body = <EmptyState title="Failed to fetch posts" />;
  } else if (feed.loading) {
    body = (
      <div aria-busy="true">
        <span style={visuallyHidden}>Loading posts</span>
        {[0, 1, 2, 3, 4].map((row) => (
          <PostCardSkeleton key={row} />
        ))}
      </div>
    );
  } else if (feed.posts.length === 0) {
    body = (
      <EmptyState
        description={topActive ? TOP_EMPTY_TEXT : EMPTY_TEXT[tab]}
        action={
          topActive ? (
            <LinkButton onClick={returnToForYou}>Return to For You feed</LinkButton>
          ) : null
        }
      />
    );
  } else {
    body = (
      <>
        {feed.posts.map((post) => (
          <PostCard
            key={post.id}
            post={post}
            onOpen={onOpen}
            onReposted={() => void feed.refresh()}
          />
        ))}
        <Footer>
          {topActive ? (
            <>
              <span>Showing {feed.posts.length} trending posts</span>
              <LinkButton onClick={returnToForYou}>Return to For You feed</LinkButton>
            </>
          ) : feed.reachedEnd ? (
            <span>No more posts</span>
          ) : (
            <Button
              variant="secondary"
              disabled={feed.loadingMore}
              aria-busy={feed.loadingMore}
              onClick={feed.loadMore}
            >
              Load more posts
            </Button>
          )}
        </Footer>
      </>
    );
  }

  return (
    <section aria-label="Home feed">
      <Tabs label="Feed" idPrefix="feed" value={tab} onSelect={select} items={TAB_ITEMS} />
      <div id="feed-panel" role="tabpanel" aria-labelledby={`feed-${tab}`}>
        {tab === 'for-you' && (
          <Toolbar>
            <Button
              variant={topActive ? 'primary' : 'secondary'}
              size="sm"
              aria-pressed={topActive}
              onClick={() => setTop((value) => !value)}
            >
              Top Posts
            </Button>
          </Toolbar>
        )}
        {tab === 'jd' && (
          <Banner to="/opportunities">
            <strong>Explore Opportunities</strong>
            <span>Swipe through personalised job recommendations</span>
          </Banner>
        )}
        {body}
      </div>
    </section>
  );
}
