import useSWR from 'swr';
import type { Profile } from '@campus/contracts';
import { keys } from '@campus/kit/data';
import { useAppEvent } from '@campus/kit/events';
import { toast } from '@campus/kit/toast';

/** GET /api/users/{id}: never served from cache, refetched on profileChanged (spec §7). */
export function useProfile(userId: number | null) {
  const result = useSWR<Profile | null, Error>(userId ? keys.user(userId) : null, {
    revalidateOnMount: true,
    onError: () =>
      toast({ title: 'Error', description: 'Failed to fetch profile', variant: 'destructive' }),
  });
  useAppEvent('profileChanged', () => void result.mutate());
  return result;
}
