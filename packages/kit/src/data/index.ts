export { DataProvider, swrDefaults, keyToPath, fetchKey } from './swr-defaults';
export { callKey, keys } from './keys';
export type { ApiKey, CallKey } from './keys';
export { readCallKey, useCallData } from './call-data';
export type { KeyData, KeyDataConfig } from './call-data';
export { getSettings, useSettings } from './settings';
export type { Settings } from './settings';
export { getNotifications, useNotifications, unreadCount } from './notifications';
export type { Notification } from './notifications';
