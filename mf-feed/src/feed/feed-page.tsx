import {
  Fragment,
  startTransition,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { FEED_TABS, type FeedTab, type Post } from '@campus/contracts';
import { useAppEvent } from '@campus/kit/events';
import { PostCard, PostCardSkeleton, imagesOf } from '@campus/kit/post-card';
import { mediaMobile, touchTextTarget } from '@campus/kit/theme';
import { Badge, EmptyState, Tabs, useMediaQuery, visuallyHidden } from '@campus/kit/ui';
import { WhoToFollow } from '../who-to-follow/who-to-follow';
import { WidgetBoundary } from '../who-to-follow/widget-boundary';
import { EmptyFollowing, InFeedWhoToFollow } from './feed-suggestions';
import { newPostsLabel, useNewPosts } from './new-posts';
import {
  readRememberedTab,
  rememberTab,
  saveFeedPosition,
  takeFeedPosition,
  type SavedFeedPosition,
} from './scroll-restoration';
import { TouchButton } from '../touch-button';
import { useFeed } from './use-feed';

/**
 * From this width the feed has a right column (Who to follow) beside it; the shell widens its
 * main column for a page that has one (`data-right-column`). Below it the card sits in the feed.
 */
const RIGHT_COLUMN_QUERY = '(min-width: 1240px)';
/** Where Who to follow sits in the feed without a right column: after this many posts. */
const SUGGESTIONS_AFTER = 3;
/**
 * Cards drawn when the page first shows posts; the others are drawn right after, in the
 * background (a transition), so the first posts are painted without waiting for twenty cards.
 * They only ever add below what is on screen.
 */
const FIRST_CARDS = 6;

/** The cards a phone's first screen can show: the first image among them loads first. */
const FIRST_SCREEN_CARDS = 3;

/**
 * The post whose images the page shows first (issue 39: its first image is fetched with high
 * priority, the rest of the feed's images lazily), if one of the first screen's posts has any.
 */
function firstImagePostId(posts: readonly Post[]): number | undefined {
  return posts
    .slice(0, FIRST_SCREEN_CARDS)
    .find((post) => imagesOf(post).length > 0 || imagesOf(post.originalPost).length > 0)?.id;
}

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
  ${touchTextTarget}
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

const Layout = styled.div`
  @media ${RIGHT_COLUMN_QUERY} {
    display: grid;
    grid-template-columns: minmax(0, 1fr) 300px;
    align-items: start;
  }
`;

const RightColumn = styled.div`
  position: sticky;
  top: 0;
  padding: ${({ theme }) => theme.space(4)};
  border-left: 1px solid ${({ theme }) => theme.colors.border};
  min-height: 100vh;
`;

const PillBar = styled.div`
  position: sticky;
  top: ${({ theme }) => theme.space(2)};
  z-index: 5;
  display: flex;
  justify-content: center;
  height: 0;
  overflow: visible;

  ${mediaMobile} {
    top: 64px; /* below the fixed mobile header */
  }
`;

const Pill = styled.button`
  margin-top: ${({ theme }) => theme.space(2)};
  min-height: 44px;
  padding: 0 ${({ theme }) => theme.space(5)};
  border: 0;
  border-radius: ${({ theme }) => theme.radius.full};
  background: ${({ theme }) => theme.colors.primary};
  color: ${({ theme }) => theme.colors.onPrimary};
  font: inherit;
  font-weight: 600;
  box-shadow: ${({ theme }) => theme.shadow.lg};
  cursor: pointer;

  &:hover {
    background: ${({ theme }) => theme.colors.primaryHover};
  }
`;

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
 * the JD banner, skeletons, empty states, paging by 20, refresh on postCreated / postDeleted / postEdited, and
 * the scroll position restored when coming back from a post within 30 minutes.
 */
export default function FeedPage() {
  const [restore] = useState<SavedFeedPosition | null>(() => takeFeedPosition());
  const [tab, setTab] = useState<FeedTab>(() => restore?.tab ?? readRememberedTab());
  const [top, setTop] = useState(() => Boolean(restore?.top && restore.tab === 'for-you'));
  const topActive = tab === 'for-you' && top;
  const feed = useFeed({ tab, top: topActive });
  const newPosts = useNewPosts({
    name: feed.name,
    tab,
    enabled: !topActive,
    posts: feed.posts,
    loaded: feed.loaded,
  });
  const wide = useMediaQuery(RIGHT_COLUMN_QUERY);
  // Coming back to a saved position needs every card there to scroll to.
  const [allCards, setAllCards] = useState(Boolean(restore));
  const hasPosts = newPosts.posts.length > 0;
  useEffect(() => {
    if (hasPosts && !allCards) startTransition(() => setAllCards(true));
  }, [hasPosts, allCards]);
  const panel = useRef<HTMLDivElement>(null);
  const [revealing, setRevealing] = useState(false);

  /** The pill: fetch the pages shown afresh, show what was held back, then go up to it. */
  const showNewPosts = async () => {
    setRevealing(true);
    try {
      await newPosts.reveal(feed.refresh);
      const top = (panel.current?.getBoundingClientRect().top ?? 0) + window.scrollY - 72;
      if (window.scrollY > top) window.scrollTo({ top: Math.max(0, top), behavior: 'smooth' });
      panel.current?.focus({ preventScroll: true });
    } catch (error) {
      console.error('Failed to load new posts', error);
    } finally {
      setRevealing(false);
    }
  };

  useAppEvent('postCreated', () => void feed.refresh());
  useAppEvent('postEdited', () => void feed.refresh());
  // Muted or blocked from a card's menu (issue 38): the feed is read again without them.
  useAppEvent('memberHidden', () => void feed.refresh());
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

  // The cards' callbacks keep their identity across renders (they read the latest state through a
  // ref), so a render of the feed (a page arriving, a like's answer, the pill) does not draw every
  // card again: PostCard is memoized on its props.
  const latest = useRef({ tab, topActive, extraPages: feed.extraPageCount, refresh: feed.refresh });
  useLayoutEffect(() => {
    latest.current = { tab, topActive, extraPages: feed.extraPageCount, refresh: feed.refresh };
  });
  const onOpen = useCallback((_post: Post) => {
    const { tab, topActive, extraPages } = latest.current;
    saveFeedPosition({ tab, top: topActive, scrollY: window.scrollY, extraPages });
  }, []);
  const onReposted = useCallback(() => void latest.current.refresh(), []);

  const returnToForYou = () => setTop(false);

  let body;
  if (feed.error) {
    body = (
      <EmptyState
        title="Failed to fetch posts"
        action={
          <TouchButton variant="secondary" onClick={() => void feed.refresh()}>
            Retry
          </TouchButton>
        }
      />
    );
  } else if (feed.loading) {
    body = (
      <div aria-busy="true">
        <span style={visuallyHidden}>Loading posts</span>
        {[0, 1, 2, 3, 4].map((row) => (
          <PostCardSkeleton key={row} />
        ))}
      </div>
    );
  } else if (newPosts.posts.length === 0 && tab === 'following') {
    body = <EmptyFollowing description={EMPTY_TEXT.following} wide={wide} />;
  } else if (newPosts.posts.length === 0) {
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
    const cards = allCards ? newPosts.posts : newPosts.posts.slice(0, FIRST_CARDS);
    const priorityPostId = firstImagePostId(cards);
    body = (
      <>
        {cards.map((post, index) => (
          <Fragment key={post.id}>
            <PostCard
              post={post}
              onOpen={onOpen}
              onReposted={onReposted}
              imagePriority={post.id === priorityPostId}
            />
            {!wide && index === SUGGESTIONS_AFTER - 1 && <InFeedWhoToFollow />}
          </Fragment>
        ))}
        {/* Not while cards are still to come: it would show above them, then move down. */}
        {cards.length === newPosts.posts.length && (
          <Footer>
            {topActive ? (
              <>
                <span>Showing {newPosts.posts.length} trending posts</span>
                <LinkButton onClick={returnToForYou}>Return to For You feed</LinkButton>
              </>
            ) : feed.reachedEnd ? (
              <span>No more posts</span>
            ) : (
              <TouchButton
                variant="secondary"
                disabled={feed.loadingMore}
                aria-busy={feed.loadingMore}
                onClick={feed.loadMore}
              >
                Load more posts
              </TouchButton>
            )}
          </Footer>
        )}
      </>
    );
  }

  return (
    <Layout data-right-column={wide ? '' : undefined}>
      <section aria-label="Home feed">
        <Tabs label="Feed" idPrefix="feed" value={tab} onSelect={select} items={TAB_ITEMS} />
        {newPosts.count > 0 && (
          <PillBar>
            <Pill
              type="button"
              aria-busy={revealing || undefined}
              disabled={revealing}
              onClick={() => void showNewPosts()}
            >
              <span aria-hidden="true">↑ </span>
              {newPostsLabel(newPosts.count)}
            </Pill>
          </PillBar>
        )}
        <div
          id="feed-panel"
          ref={panel}
          tabIndex={-1}
          role="tabpanel"
          aria-labelledby={`feed-${tab}`}
        >
          {tab === 'for-you' && (
            <Toolbar>
              <TouchButton
                variant={topActive ? 'primary' : 'secondary'}
                size="sm"
                aria-pressed={topActive}
                onClick={() => setTop((value) => !value)}
              >
                Top Posts
              </TouchButton>
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
      {wide && (
        <RightColumn>
          <WidgetBoundary>
            <WhoToFollow />
          </WidgetBoundary>
        </RightColumn>
      )}
    </Layout>
  );
}
