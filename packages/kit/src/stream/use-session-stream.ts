import { useEffect } from 'react';
import { useSWRConfig } from 'swr';
import { callRoutes, type FeedTab, type Notification } from '@campus/contracts';
import { ApiError, callApi, resolveApiUrl } from '@campus/kit/api';
import { keys, type KeyData } from '@campus/kit/data';
import { whenPrefetchSettled } from '@campus/kit/prefetch';
import {
  emitLiveNotification,
  forgetNewestPosts,
  getLiveState,
  onNewestPostsChanged,
  resetLiveState,
  setLiveState,
  streamTabsParam,
} from './live-state';
import {
  connectStream,
  type StreamConnection,
  type StreamMessage,
  type StreamStatus,
} from './stream-connection';

/** The plain notification list holds the newest 100 (api/README.md). */
const LIST_LENGTH = 100;

/** While the stream is down the unread count is polled: 15 s, then 30 s, 60 s, at most 2 min. */
export function unreadPollDelay(poll: number): number {
  return Math.min(120_000, 15_000 * 2 ** poll);
}

/** Tabs change when the feed shows new posts; one reconnection for a burst of reports. */
const TABS_SETTLE_MS = 300;

/** At most this long after the page's first data the stream waits for an idle moment to open. */
export const STREAM_START_IDLE_MS = 1_000;

/**
 * Calls `start` once the page's early requests (@campus/kit/prefetch) have been answered and then
 * the browser is idle (at most STREAM_START_IDLE_MS later): the stream holds one of the browser's
 * few connections to the API for good, and the page's first data must never queue behind it
 * (issue 22). Opening after the feed has shown its first page also lets the first connection
 * carry the feed's newest posts (`tabs`) instead of being replaced at once. Returns the cancel.
 */
function afterFirstData(start: () => void): () => void {
  let cancelled = false;
  let idle: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  void whenPrefetchSettled().then(() => {
    if (cancelled) return;
    if (typeof window.requestIdleCallback === 'function') {
      idle = window.requestIdleCallback(start, { timeout: STREAM_START_IDLE_MS });
    } else {
      timer = setTimeout(start, 0);
    }
  });
  return () => {
    cancelled = true;
    if (idle !== undefined) window.cancelIdleCallback(idle);
    clearTimeout(timer);
  };
}

/**
 * After the API refused the stream: whether the session still holds. The session check renews
 * an access cookie that ran out (the api client does); a session the API ended signs out there,
 * with its reason, and the stream stops. A network failure is no answer: try again later.
 */
async function sessionHolds(): Promise<boolean> {
  try {
    return (await callApi(callRoutes.me, { on401: 'returnNull' })) !== null;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return false;
    throw error;
  }
}

function parseData(event: StreamMessage): unknown {
  try {
    return JSON.parse(event.data) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * The session's live stream (one per tab): open while `userId`'s session is confirmed. It keeps
 * the live state (unread count, new posts per tab), puts new notifications into the shared
 * notifications cache, and polls that list with back-off while the stream is down.
 */
export function useSessionStream(userId: number | null): void {
  const { mutate } = useSWRConfig();

  useEffect(() => {
    if (!userId) return;
    let pollTimer: ReturnType<typeof setTimeout> | undefined;
    let tabsTimer: ReturnType<typeof setTimeout> | undefined;
    let polls = 0;

    const pollWhileDown = () => {
      clearTimeout(pollTimer);
      pollTimer = setTimeout(() => {
        void mutate(keys.notifications());
        polls += 1;
        pollWhileDown();
      }, unreadPollDelay(polls));
    };

    const onStatus = (status: StreamStatus) => {
      // A reconnection on purpose (new tabs) keeps the last count until the next one arrives.
      setLiveState(status === 'down' || status === 'off' ? { status, unread: null } : { status });
      if (status === 'down') {
        if (pollTimer === undefined) pollWhileDown();
      } else if (status === 'open' || status === 'off') {
        clearTimeout(pollTimer);
        pollTimer = undefined;
        polls = 0;
      }
    };

    const onEvent = (event: StreamMessage) => {
      const data = parseData(event);
      if (!isObject(data)) return;
      if (event.event === 'unread' && isCount(data.count)) {
        setLiveState({ unread: data.count });
      } else if (event.event === 'posts' && typeof data.tab === 'string' && isCount(data.count)) {
        const tab = data.tab as FeedTab;
        setLiveState({ newPosts: { ...getLiveState().newPosts, [tab]: data.count } });
      } else if (
        event.event === 'notification' &&
        isCount(data.id) &&
        typeof data.type === 'string'
      ) {
        const notification = data as unknown as Notification;
        void mutate<KeyData<ReturnType<typeof keys.notifications>>>(
          keys.notifications(),
          (current) =>
            current && !current.some((item) => item.id === notification.id)
              ? [notification, ...current].slice(0, LIST_LENGTH)
              : current,
          { revalidate: false },
        );
        emitLiveNotification(notification);
      }
    };

    let connection: StreamConnection | null = null;
    const cancelStart = afterFirstData(() => {
      connection = connectStream({
        url: (lastEventId) => {
          const query = new URLSearchParams();
          const tabs = streamTabsParam();
          if (tabs) query.set('tabs', tabs);
          if (lastEventId) query.set('lastEventId', lastEventId);
          const search = query.toString();
          return resolveApiUrl(search ? `/api/stream?${search}` : '/api/stream');
        },
        onStatus,
        onEvent,
        checkSession: sessionHolds,
      });
    });

    // Not open yet: the first connection reads the tabs when it opens.
    const offNewest = onNewestPostsChanged(() => {
      if (!connection) return;
      clearTimeout(tabsTimer);
      tabsTimer = setTimeout(() => connection?.reconnect(), TABS_SETTLE_MS);
    });
    const onOnline = () => {
      if (getLiveState().status === 'down') connection?.reconnect();
    };
    window.addEventListener('online', onOnline);

    return () => {
      window.removeEventListener('online', onOnline);
      offNewest();
      clearTimeout(tabsTimer);
      clearTimeout(pollTimer);
      cancelStart();
      connection?.close();
      resetLiveState();
    };
  }, [userId, mutate]);

  useEffect(() => {
    if (!userId) forgetNewestPosts();
  }, [userId]);
}
