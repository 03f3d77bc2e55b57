export {
  PREFETCH_MAX_AGE_MS,
  PREFETCH_SLOT,
  forgetPrefetched,
  hasPrefetched,
  prefetchKey,
  arrivedPrefetch,
  prefetchSlot,
  takePrefetched,
  whenPrefetchSettled,
  withPrefetch,
} from './prefetch-store';
export type { PrefetchEntry, PrefetchSlot } from './prefetch-store';
