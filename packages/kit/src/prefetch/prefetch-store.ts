import { readStoredAuth } from '@campus/kit/api';

/**
 * Early answers to a page's first API calls (issue 22: no waterfall). The shell's entry script
 * starts the landing route's first requests (the feed's first page, a profile, the first
 * notifications) as soon as it has read env.json and the stored login, long before the session
 * check has answered and the route's remote has arrived, and leaves each pending answer here.
 * The remote's fetcher then takes the answer instead of asking again. It is a head start, never a
 * second source of truth: an answer is handed out once, only for the member it was asked for,
 * only while it is young, and only when it succeeded; anything else (no entry, another member, a
 * failed or stale request) leaves the fetcher to make its own request, as it does when a remote
 * runs alone.
 *
 * The store lives in one global slot (`Symbol.for('campus.prefetch')`) rather than in this
 * module's state, because the shell fills it from its entry script, before the shared modules
 * (this kit among them) can be loaded.
 */
export const PREFETCH_SLOT: unique symbol = Symbol.for('campus.prefetch') as never;

/** One early request, as the shell's entry script leaves it. */
export interface PrefetchEntry {
  /**
   * The member whose stored login the request was sent for (with the session cookie: the page
   * holds no token).
   */
  userId: number;
  /** When the request was started (`Date.now()`). */
  startedAt: number;
  /** The parsed JSON of a 2xx answer; rejects for any other answer or a network failure. */
  response: Promise<unknown>;
  /** Set when a fetcher has taken the answer (or found it unusable): it is not handed out again. */
  taken?: boolean;
  /**
   * Set by the writer as soon as the request has succeeded: its parsed answer, readable without
   * waiting, so that a page mounting after it arrived can draw it in its first render
   * (takeArrivedPrefetch) instead of a placeholder first.
   */
  answer?: { value: unknown };
}

/**
 * The slot: entries by the path their request was sent to. Readers match paths by `prefetchKey`,
 * so the writer (the shell's entry script, which cannot load this module yet) need not know it.
 */
export type PrefetchSlot = Map<string, PrefetchEntry>;

/**
 * An early answer older than this (from the start of its request) is not used: the page that
 * asked for it was not shown in time, and a later showing fetches its data afresh.
 */
export const PREFETCH_MAX_AGE_MS = 15_000;

type WithSlot = { [PREFETCH_SLOT]?: PrefetchSlot };

function slot(): PrefetchSlot | undefined {
  return (globalThis as WithSlot)[PREFETCH_SLOT];
}

/** The slot, created when missing (the writer's side). */
export function prefetchSlot(): PrefetchSlot {
  const holder = globalThis as WithSlot;
  holder[PREFETCH_SLOT] ??= new Map();
  return holder[PREFETCH_SLOT];
}

/**
 * The key of an API path: its query parameters in a fixed order and without the cache-busting
 * `_` (the feed's first page carries one; the early request and the fetcher each have their own).
 */
export function prefetchKey(path: string): string {
  const query = path.indexOf('?');
  if (query === -1) return path;
  const params = new URLSearchParams(path.slice(query + 1));
  params.delete('_');
  params.sort();
  const rest = params.toString();
  return rest ? `${path.slice(0, query)}?${rest}` : path.slice(0, query);
}

/** The entry for `path`: the one whose path has the same `prefetchKey`. */
function entryFor(path: string): PrefetchEntry | undefined {
  const key = prefetchKey(path);
  for (const [stored, entry] of slot() ?? []) if (prefetchKey(stored) === key) return entry;
  return undefined;
}

/**
 * Takes the early request for `path` (it is handed out once): its answer when it was asked for
 * `userId` and started less than PREFETCH_MAX_AGE_MS ago, else null (a stale or foreign entry is
 * not handed out later either).
 */
export function takePrefetched<T>(
  path: string,
  userId: number | null | undefined,
  now = Date.now(),
): Promise<T> | null {
  const entry = entryFor(path);
  if (!entry || entry.taken) return null;
  entry.taken = true;
  if (!userId || entry.userId !== userId || now - entry.startedAt >= PREFETCH_MAX_AGE_MS) {
    return null;
  }
  return entry.response as Promise<T>;
}

/**
 * The early answer for `path` when it has already arrived (the writer recorded it in `answer`),
 * under the same rules as takePrefetched (not taken yet, the same member, young), WITHOUT taking
 * it: a page reads it while rendering (a render React may throw away and do again), then takes
 * the entry (takePrefetched) once that render is committed. Null when there is none usable or it
 * has not arrived yet (an entry still on its way is for the fetcher: withPrefetch waits for it).
 */
export function arrivedPrefetch<T>(
  path: string,
  userId: number | null | undefined = readStoredAuth()?.user.id,
  now = Date.now(),
): { value: T } | null {
  const entry = entryFor(path);
  if (!entry || entry.taken || !entry.answer) return null;
  if (!userId || entry.userId !== userId || now - entry.startedAt >= PREFETCH_MAX_AGE_MS) {
    return null;
  }
  return entry.answer as { value: T };
}

/**
 * Reads `path` from its early request when there is a usable one (see takePrefetched; the member is
 * the stored login's), else, or when that request failed, with `load`: the fetcher's own request.
 */
export async function withPrefetch<T>(path: string, load: () => Promise<T>): Promise<T> {
  const early = takePrefetched<T>(path, readStoredAuth()?.user.id);
  if (early) {
    try {
      return await early;
    } catch {
      // The early request failed (a 401, a 5xx, no network): the fetcher asks again itself and
      // handles the answer as it always does (a 401 signs out, a failure shows its error).
    }
  }
  return load();
}

/** Whether an early request for `path` is waiting to be taken. */
export function hasPrefetched(path: string): boolean {
  const entry = entryFor(path);
  return entry !== undefined && !entry.taken;
}

/**
 * Drops every early answer not taken yet: the member navigated away from the landing route (a
 * page shown later fetches its own data), or signed out.
 */
export function forgetPrefetched(): void {
  slot()?.clear();
}

/**
 * Resolves once every early request started so far (taken or not) has been answered or has
 * failed: the live stream waits for it, so that the page's first data never queues behind it.
 */
export async function whenPrefetchSettled(): Promise<void> {
  const started = [...(slot()?.values() ?? [])].map((entry) => entry.response);
  await Promise.allSettled(started);
}
