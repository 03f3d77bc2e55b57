import { ApiError, failureDescription } from '@campus/kit/api';

/**
 * What a failed edit or delete says: the API's own message for a refusal the member can act on
 * (a 4xx: too long, too many edits, gone meanwhile), else `fallback`.
 */
export function failureMessage(error: unknown, fallback: string): string {
  if (
    error instanceof ApiError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.serverMessage
  ) {
    return error.serverMessage;
  }
  return failureDescription(error, fallback);
}
