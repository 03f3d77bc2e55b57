import { unreadCount, useNotifications } from '@campus/kit/data';

/** The unread count behind the sidebar badge and the bottom-bar dot (the shared SWR cache). */
export function useUnreadCount(): number {
  const { data } = useNotifications();
  return unreadCount(data);
}
