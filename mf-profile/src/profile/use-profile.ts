import useSWR from 'swr';
import type { Profile } from '@campus/contracts';
import { keys } from '@campus/kit/data';
import { ApiError } from '@campus/kit/api';
import { useAppEvent } from '@campus/kit/events';
import { toast } from '@campus/kit/toast';

/**
 * GET /api/users/{id} (spec §7): fetched afresh whenever a page mounts, refetched on
 * profileChanged and when a post is created or deleted (the profile lists the user's posts).
 */
export function useProfile(userId: number | null) {
  const result = useSWR<Profile | null, Error>(userId ? keys.user(userId) : null, {
    revalidateOnMount: true,
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
