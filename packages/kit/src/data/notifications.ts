import type { SWRResponse } from 'swr';
import type { Notification } from '@campus/contracts';
import { readCallKey, useCallData, type KeyData } from './call-data';
import { keys } from './keys';

/** A notification as the client sees it (spec §3); one definition, in @campus/contracts. */
export type { Notification } from '@campus/contracts';

type NotificationsData = KeyData<ReturnType<typeof keys.notifications>>;

export function getNotifications(): Promise<NotificationsData> {
  return readCallKey(keys.notifications());
}

/** The signed-in user's notifications; `enabled: false` keeps the hook idle (signed out). */
export function useNotifications(
  options: { enabled?: boolean } = {},
): SWRResponse<NotificationsData, Error> {
  const { enabled = true } = options;
  return useCallData(enabled ? keys.notifications() : null, { fetcher: getNotifications });
}

export function unreadCount(notifications: readonly Notification[] | null | undefined): number {
  return notifications?.filter((notification) => !notification.isRead).length ?? 0;
}
