// What mf_admin publishes: its rspack config reads these paths (readExposes in rspack.shared.js),
// and the compiler checks each module's props against the kit's map of remote modules.
import type { RemoteExposes } from '@campus/kit/remote-modules';

export const exposes = {
  './AnalyticsPage': () => import('./analytics/analytics-page'),
  './ApplicationsPage': () => import('./applications/applications-page'),
  './FeedbackPage': () => import('./feedback/feedback-page'),
  './MembersPage': () => import('./members/members-page'),
  './ReportsPage': () => import('./reports/reports-page'),
  './AppealsPage': () => import('./appeals/appeals-page'),
  './AuditPage': () => import('./audit/audit-page'),
} satisfies RemoteExposes<'mf_admin'>;
