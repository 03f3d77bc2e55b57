import useSWR from 'swr';
import type { UserSuggestion } from '@campus/contracts';

/** `GET /api/users/suggestions` (api/README.md "Who to follow"), read by the default fetcher. */
export const suggestionsKey = () => ['/api/users', 'suggestions'] as const;

/** The people to suggest: fetched when the feed is shown, never retried or refetched on focus. */
export function useSuggestions() {
  return useSWR<UserSuggestion[]>(suggestionsKey(), { revalidateOnMount: true });
}
