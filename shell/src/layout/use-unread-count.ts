import { useUnreadCount as useLiveUnreadCount } from '@campus/kit/stream';

/**
 * The unread count behind the sidebar badge and the bottom-bar dot: live from the session's
 * stream while it is open, else from the shared notifications list (polled while it is down).
 */
export function useUnreadCount(): number {
  return useLiveUnreadCount();
}
