import useSWR from 'swr';
import { getJson } from '@campus/kit/api';
import { keys, type ApiKey } from './keys';
import { keyToPath } from './swr-defaults';
import type { Notification } from '@campus/contracts';

/** A notification as the client sees it (spec §3); one definition, in @campus/contracts. */
export type { Notification } from '@campus/contracts';

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
