import { keyToPath, keys, readCallKey, useCallData } from '@campus/kit/data';
import { ApiError } from '@campus/kit/api';
import { withPrefetch } from '@campus/kit/prefetch';
import { useAppEvent } from '@campus/kit/events';
import { toast } from '@campus/kit/toast';

/**
 * The profile: from the shell's early request when the page was opened on this profile
 * (@campus/kit/prefetch), else requested here.
 */
const fetchProfile = (key: ReturnType<typeof keys.user>) =>
  withPrefetch(keyToPath(key), () => readCallKey(key));

/**
 * GET /api/users/{id} (spec §7): fetched afresh whenever a page mounts, however soon after the
 * last showing; refetched on profileChanged and when a post is created or deleted (the profile
 * lists the user's posts).
 */
export function useProfile(userId: number | null) {
  const result = useCallData(userId ? keys.user(userId) : null, {
    fetcher: fetchProfile,
    revalidateOnMount: true,
    // Never cached (spec §7): a page mounting within SWR's dedupe window (2 s by default) of the
    // last answer would be handed that answer again without a request. Requests in flight are
    // still shared.
    dedupingInterval: 0,
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
  useAppEvent('postEdited', refetch);
  useAppEvent('memberHidden', refetch);
  return result;
}
