import { useLayoutEffect, useState } from 'react';
import useSWR, { unstable_serialize, useSWRConfig } from 'swr';
import type { Profile } from '@campus/contracts';
import { fetchKey, keyToPath, keys } from '@campus/kit/data';
import { ApiError, readStoredAuth } from '@campus/kit/api';
import { arrivedPrefetch, takePrefetched, withPrefetch } from '@campus/kit/prefetch';
import { useAppEvent } from '@campus/kit/events';
import { toast } from '@campus/kit/toast';

type ProfileKey = ReturnType<typeof keys.user>;

/**
 * The profile: from the shell's early request when the page was opened on this profile
 * (@campus/kit/prefetch), else requested here.
 */
const fetchProfile = (key: ProfileKey) =>
  withPrefetch(keyToPath(key), () => fetchKey<Profile>(key));

/**
 * The shell's early answer for `key` when it has already arrived and nothing is cached for it yet
 * (a landing on this profile): read while rendering, without taking it.
 */
function arrivedProfile(
  key: ProfileKey | null,
  cached: (serialized: string) => unknown,
): { serialized: string; path: string; value: Profile } | null {
  if (!key) return null;
  const serialized = unstable_serialize(key);
  if (cached(serialized) !== undefined) return null;
  const path = keyToPath(key);
  const arrived = arrivedPrefetch<Profile | null>(path);
  return arrived?.value ? { serialized, path, value: arrived.value } : null;
}

/**
 * GET /api/users/{id} (spec §7): fetched afresh whenever a page mounts, refetched on
 * profileChanged and when a post is created or deleted (the profile lists the user's posts).
 * Opened on this profile (a landing) with the shell's early answer already arrived, the first
 * render draws that answer (it was asked for a moment ago: it is the fresh fetch), with no
 * skeleton first; the answer is taken once that render is on the page.
 */
export function useProfile(userId: number | null) {
  const key = userId ? keys.user(userId) : null;
  const { cache } = useSWRConfig();
  const [early, setEarly] = useState(() =>
    arrivedProfile(key, (serialized) => cache.get(serialized)),
  );
  // Another profile shown by the same page (a new id) is fetched as usual, and so is this one
  // when it comes back.
  if (early && (key === null || early.serialized !== unstable_serialize(key))) setEarly(null);
  const prefilled = early !== null;
  if (early && cache.get(early.serialized) === undefined) {
    cache.set(early.serialized, { data: early.value });
  }
  // Once that render is on the page, the early answer is taken: no one is handed it again.
  useLayoutEffect(() => {
    const token = readStoredAuth()?.token;
    if (early && token) void takePrefetched(early.path, token)?.catch(() => null);
  }, [early]);
  const result = useSWR<Profile | null, Error>(key, fetchProfile, {
    revalidateOnMount: !prefilled,
    // A 404 is the 'User not found' page itself, not a failure to report on top of it.
    onError: (error) => {
      if (error instanceof ApiError && error.status === 404) return;
      toast({ title: 'Failed to fetch profile', variant: 'destructive' });
    },
  });
  const refetch = () => void result.mutate();
  useAppEvent('profileChanged', refetch);
  useAppEvent('postCreated', refetch);
  useAppEvent('postDeleted', refetch);
  return result;
}
