export { emitAppEvent, onAppEvent, useAppEvent } from './app-events';
export type { AppEventMap, AppEventName, SignOutReason } from './app-events';
