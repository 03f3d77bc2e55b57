import useSWR from 'swr';
import { getJson } from '@campus/kit/api';
import { keys, type ApiKey } from './keys';
import { keyToPath } from './swr-defaults';

/** A notification as the client sees it (spec §3). */
export interface Notification {
  id: number;
  type: string;
  isRead: boolean;
  createdAt: string;
  actor?: { id: number; name: string; avatarUrl: string | null } | null;
  post?: { id: number; content: string } | null;
  feedback?: { message: string } | null;
}

export function getNotifications(): Promise<Notification[] | null> {
  return getJson<Notification[]>(keyToPath(keys.notifications()));
}

/** The signed-in user's notifications; `enabled: false` keeps the hook idle (signed out). */
export function useNotifications(options: { enabled?: boolean } = {}) {
  const { enabled = true } = options;
  return useSWR<Notification[] | null, Error, ApiKey | null>(
    enabled ? keys.notifications() : null,
    getNotifications,
  );
}

export function unreadCount(notifications: readonly Notification[] | null | undefined): number {
  return notifications?.filter((notification) => !notification.isRead).length ?? 0;
}
