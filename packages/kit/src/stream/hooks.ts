import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { FeedTab, Notification } from '@campus/contracts';
import { unreadCount, useNotifications } from '@campus/kit/data';
import { getLiveState, onLiveNotification, subscribeLiveState, type LiveState } from './live-state';

/** The session stream's state: its status, the live unread count, new posts per tab. */
export function useLiveState(): LiveState {
  return useSyncExternalStore(subscribeLiveState, getLiveState, getLiveState);
}

/**
 * How many of the member's notifications are unread: the stream's live count while it is open,
 * else the count in the shared notifications list (which the session polls while the stream is
 * down). `enabled: false` keeps it idle (signed out).
 */
export function useUnreadCount(options: { enabled?: boolean } = {}): number {
  const live = useLiveState();
  const { data } = useNotifications(options);
  if (options.enabled === false) return 0;
  return live.unread !== null ? live.unread : unreadCount(data);
}

/**
 * How many posts newer than the newest one the feed reported for `tab` (`reportNewestPost`) have
 * arrived since; 0 until the stream says otherwise. For the '{n} new posts' pill.
 */
export function useNewPostsCount(tab: FeedTab): number {
  return useLiveState().newPosts[tab] ?? 0;
}

/** Calls the latest `handler` for every notification the stream delivers while mounted. */
export function useLiveNotifications(handler: (notification: Notification) => void): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => onLiveNotification((notification) => latest.current(notification)), []);
}
