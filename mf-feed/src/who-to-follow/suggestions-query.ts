import { keys, useCallData } from '@campus/kit/data';

/** `GET /api/users/suggestions` (api/README.md "Who to follow"), read by the default fetcher. */
export const suggestionsKey = keys.userSuggestions;

/** The people to suggest: fetched when the feed is shown, never retried or refetched on focus. */
export function useSuggestions() {
  return useCallData(suggestionsKey(), { revalidateOnMount: true });
}
