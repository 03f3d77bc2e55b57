import type { AdminSummary } from '@campus/contracts';
import { keys, useCallData } from '@campus/kit/data';
import { useSession } from '@campus/kit/session';

/** The admin's pages (issue 18) and which count of `GET /api/admin/summary` each shows. */
export const ADMIN_LINKS: readonly {
  to: string;
  label: string;
  count?: keyof AdminSummary;
  /** What the count means, for screen readers ('2 pending'). */
  countLabel?: string;
}[] = [
  { to: '/analytics', label: 'Analytics' },
  {
    to: '/admin/applications',
    label: 'Applications',
    count: 'pendingApplications',
    countLabel: 'pending',
  },
  { to: '/admin/feedback', label: 'Feedback', count: 'pendingFeedback', countLabel: 'pending' },
  { to: '/admin/members', label: 'Members' },
  { to: '/admin/reports', label: 'Reports', count: 'openReports', countLabel: 'open' },
  { to: '/admin/appeals', label: 'Appeals', count: 'pendingAppeals', countLabel: 'pending' },
  { to: '/admin/audit', label: 'Audit log' },
];

/**
 * The counts of the Admin section, for the admin only (nobody else asks). mf-admin revalidates
 * this key after every action, so the counts follow what the admin does.
 */
export function useAdminSummary(): AdminSummary | null {
  const { isAdmin } = useSession();
  const { data } = useCallData(isAdmin ? keys.adminSummary() : null, { revalidateOnMount: true });
  return isAdmin ? (data ?? null) : null;
}

/** How many things wait for the admin, all pages together (the sidebar's Admin badge). */
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

/** Whether anything waits for the admin (the bottom bar's dot). */
export function adminHasWork(summary: AdminSummary | null): boolean {
  return adminWaiting(summary) > 0;
}
