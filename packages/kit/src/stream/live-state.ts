import type { FeedTab, Notification } from '@campus/contracts';
import type { StreamStatus } from './stream-connection';

/** What the session's stream has said so far; one per page (the kit is a shared singleton). */
export interface LiveState {
  status: StreamStatus;
  /** The unread count from the last `unread` event; null before one arrived on this connection. */
  unread: number | null;
  /** New posts per tab since the newest the feed reported (`posts` events). */
  newPosts: Partial<Record<FeedTab, number>>;
}

const INITIAL: LiveState = { status: 'off', unread: null, newPosts: {} };
let state: LiveState = INITIAL;
const stateListeners = new Set<() => void>();

export function getLiveState(): LiveState {
  return state;
}

export function setLiveState(patch: Partial<LiveState>): void {
  state = { ...state, ...patch };
  for (const listener of stateListeners) listener();
}

export function resetLiveState(): void {
  state = INITIAL;
  for (const listener of stateListeners) listener();
}

export function subscribeLiveState(listener: () => void): () => void {
  stateListeners.add(listener);
  return () => stateListeners.delete(listener);
}

const notificationListeners = new Set<(notification: Notification) => void>();

/** Calls `handler` with every notification the stream delivers; returns the unsubscribe. */
export function onLiveNotification(handler: (notification: Notification) => void): () => void {
  notificationListeners.add(handler);
  return () => notificationListeners.delete(handler);
}

export function emitLiveNotification(notification: Notification): void {
  for (const listener of notificationListeners) listener(notification);
}

/** The newest post id the feed shows per tab: the stream counts the posts newer than these. */
const newestPosts = new Map<FeedTab, number>();
const newestListeners = new Set<() => void>();

/**
 * The feed tells the session which post is the newest it shows on `tab` (0 when it shows none).
 * The stream then counts new posts from there; the tab's count starts again at 0.
 */
export function reportNewestPost(tab: FeedTab, postId: number): void {
  if (!Number.isSafeInteger(postId) || postId < 0) return;
  if (newestPosts.get(tab) === postId) return;
  newestPosts.set(tab, postId);
  setLiveState({ newPosts: { ...state.newPosts, [tab]: 0 } });
  for (const listener of newestListeners) listener();
}

export function onNewestPostsChanged(listener: () => void): () => void {
  newestListeners.add(listener);
  return () => newestListeners.delete(listener);
}

/** `tabs` of `GET /api/stream`: `for-you:338,following:301` ('' when the feed reported none). */
export function streamTabsParam(): string {
  return [...newestPosts].map(([tab, postId]) => `${tab}:${postId}`).join(',');
}

/** Forgets what the feed reported (on sign-out: the next member starts afresh). */
export function forgetNewestPosts(): void {
  newestPosts.clear();
}
