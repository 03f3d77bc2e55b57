import type { AdminSummary } from '@campus/contracts';
import { keys, useCallData } from '@campus/kit/data';
import { useSession } from '@campus/kit/session';

/**
 * The counts of the Admin section, for the admin only (nobody else asks). mf-admin revalidates
 * this key after every action, so the counts follow what the admin does.
 */
export function useAdminSummary(): AdminSummary | null {
  const { isAdmin } = useSession();
  const { data } = useCallData(isAdmin ? keys.adminSummary() : null, { revalidateOnMount: true });
  return isAdmin ? (data ?? null) : null;
}

/** How many things wait for the admin, all pages together (the Admin entry's badge and dot). */
export function adminWaiting(summary: AdminSummary | null): number {
  if (!summary) return 0;
  return (
    summary.pendingApplications +
    summary.pendingFeedback +
    summary.openReports +
    // An older API's summary has no appeals.
    (summary.pendingAppeals ?? 0)
  );
}
