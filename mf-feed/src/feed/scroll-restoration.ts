import { DEFAULT_FEED_TAB, FEED_TABS, type FeedTab } from '@campus/contracts';

/** Spec §9: a saved feed position is restored for 30 minutes, then dropped. */
export const SCROLL_RESTORATION_MS = 30 * 60_000;

const STORAGE_KEY = 'campus.feed.scroll';

export interface SavedFeedPosition {
  tab: FeedTab;
  top: boolean;
  scrollY: number;
  /** How many pages beyond the first were loaded. */
  extraPages: number;
  savedAt: number;
}

/** Spec §4: opening a post saves the tab, the scroll position and the extra loaded pages. */
export function saveFeedPosition(position: Omit<SavedFeedPosition, 'savedAt'>): void {
  try {
    window.sessionStorage.setItem(
      STORAGE_KEY,
      JSON.stringify({ ...position, savedAt: Date.now() }),
    );
  } catch {
    // storage full or blocked: coming back simply starts at the top
  }
}

/**
 * Takes the saved position (it is used once). An entry older than 30 minutes, or unreadable, is
 * discarded and nothing is returned.
 */
export function takeFeedPosition(now = Date.now()): SavedFeedPosition | null {
  let raw: string | null;
  try {
    raw = window.sessionStorage.getItem(STORAGE_KEY);
    window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    return null;
  }
  if (!raw) return null;
  try {
    const saved = JSON.parse(raw) as SavedFeedPosition;
    const fresh = typeof saved.savedAt === 'number' && now - saved.savedAt < SCROLL_RESTORATION_MS;
    return fresh ? saved : null;
  } catch {
    return null;
  }
}

const TAB_STORAGE_KEY = 'campus.feed.tab';

/** Spec §2: the selected tab is remembered for the session. */
export function readRememberedTab(): FeedTab {
  try {
    const stored = window.sessionStorage.getItem(TAB_STORAGE_KEY);
    return FEED_TABS.find((tab) => tab === stored) ?? DEFAULT_FEED_TAB;
  } catch {
    return DEFAULT_FEED_TAB;
  }
}

export function rememberTab(tab: FeedTab): void {
  try {
    window.sessionStorage.setItem(TAB_STORAGE_KEY, tab);
  } catch {
    // not remembered: the feed opens on For You next time
  }
}
