export { emitAppEvent, onAppEvent, useAppEvent } from './app-events';
export type { AppEventMap, AppEventName } from './app-events';
