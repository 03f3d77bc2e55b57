import { ApiError } from '@campus/kit/api';
import { Button, EmptyState } from '@campus/kit/ui';

/**
 * Spec §2's 'User not found' view. After a failure to load (not the API saying there is no such
 * user) it offers Retry (issue 41): the failure may pass, the spec's toast has said what happened.
 */
export function ProfileNotFound({ error, retry }: { error: unknown; retry: () => void }) {
  const failed = error !== undefined && !(error instanceof ApiError && error.status === 404);
  return (
    <EmptyState
      title="User not found"
      description="This user profile doesn't exist."
      action={
        failed ? (
          <Button variant="secondary" onClick={retry}>
            Retry
          </Button>
        ) : undefined
      }
    />
  );
}
