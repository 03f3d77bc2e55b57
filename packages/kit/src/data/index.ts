export { DataProvider, swrDefaults, keyToPath, fetchKey } from './swr-defaults';
export { keys } from './keys';
export type { ApiKey } from './keys';
export { getSettings, useSettings } from './settings';
export type { Settings } from './settings';
export { getNotifications, useNotifications, unreadCount } from './notifications';
export type { Notification } from './notifications';
