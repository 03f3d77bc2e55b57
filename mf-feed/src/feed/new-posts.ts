import { useCallback, useEffect, useState } from 'react';
import type { FeedTab, Post } from '@campus/contracts';
import { useSession } from '@campus/kit/session';
import { reportNewestPost, useNewPostsCount } from '@campus/kit/stream';

/** The tabs with a '{n} new posts' pill (issue 19): the time-ordered feeds a member follows. */
const PILL_TABS: readonly FeedTab[] = ['for-you', 'following'];

/** The newest post of some pages (ids are sequential: a higher id is a newer post). */
export function newestId(posts: readonly Pick<Post, 'id'>[]): number {
  return posts.reduce((newest, post) => Math.max(newest, post.id), 0);
}

export const newPostsLabel = (count: number) => `${count} new ${count === 1 ? 'post' : 'posts'}`;

/**
 * Keeps the feed still while it is read (issue 19): a refresh (after the member's own post or
 * repost, say) may bring newer posts by others, and those that would land above the posts the
 * reader was shown are held back and counted instead, with the ones the session's stream hears
 * of (`reportNewestPost`). `reveal` refreshes and shows them all. The member's own new posts
 * always show; 'Load more' appends below as before. Off on Top Posts (not ordered by time) and on
 * tabs without the pill.
 */
export function useNewPosts({
  name,
  tab,
  enabled,
  posts,
  loaded,
}: {
  /** The showing's feed name: another tab or filter starts afresh. */
  name: string;
  tab: FeedTab;
  enabled: boolean;
  posts: Post[];
  loaded: boolean;
}) {
  const { user } = useSession();
  const active = enabled && PILL_TABS.includes(tab);
  const [seen, setSeen] = useState<{ name: string; ids: ReadonlySet<number> } | null>(null);
  const known = seen?.name === name ? seen.ids : null;

  // The first page of a showing is what the reader was shown.
  if (active && loaded && known === null) {
    setSeen({ name, ids: new Set(posts.map((post) => post.id)) });
  }

  // Held back: posts by others above the first post the reader was shown.
  let shown = posts;
  if (active && known !== null && known.size > 0) {
    const firstKnown = posts.findIndex((post) => known.has(post.id));
    if (firstKnown > 0) {
      const above = posts.slice(0, firstKnown).filter((post) => post.author.id === user?.id);
      shown = [...above, ...posts.slice(firstKnown)];
    }
  }
  const waiting = posts.length - shown.length;
  const newest = newestId(shown);

  useEffect(() => {
    if (active && known !== null) reportNewestPost(tab, newest);
  }, [active, tab, known, newest]);

  const streamed = useNewPostsCount(tab);

  /** Shows the posts fetched by `load` (a refresh of the pages shown) and everything held. */
  const reveal = useCallback(
    async (load: () => Promise<Post[][] | undefined>) => {
      const pages = await load();
      const ids = new Set([...(pages ?? []).flat(), ...posts].map((post) => post.id));
      setSeen({ name, ids });
    },
    [name, posts],
  );

  return {
    posts: shown,
    count: active && known !== null ? Math.max(streamed, waiting) : 0,
    reveal,
  };
}
