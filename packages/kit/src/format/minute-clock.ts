import { useSyncExternalStore } from 'react';

/** How often shown times are brought up to date while a page is open. */
export const CLOCK_TICK_MS = 60_000;

/**
 * One clock for the whole page, however many times are shown: a single interval runs while at
 * least one component reads it and stops when the last one unmounts.
 */
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (timer === undefined) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, CLOCK_TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

const snapshot = () => now;

/** The current time in milliseconds, refreshed every minute (re-renders the caller). */
export function useMinuteClock(): number {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
