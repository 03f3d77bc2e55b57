export { useLiveNotifications, useLiveState, useNewPostsCount, useUnreadCount } from './hooks';
export { reportNewestPost } from './live-state';
export type { LiveState } from './live-state';
export { useSessionStream } from './use-session-stream';
export type { StreamStatus } from './stream-connection';
