import { mountStandalone } from '@campus/kit/standalone';
import AnalyticsPage from './analytics/analytics-page';
import AppealsPage from './appeals/appeals-page';
import ApplicationsPage from './applications/applications-page';
import AuditPage from './audit/audit-page';
import FeedbackPage from './feedback/feedback-page';
import MembersPage from './members/members-page';
import ReportsPage from './reports/reports-page';

// Only for running this remote alone (`npm run dev -w mf-admin`).
mountStandalone([
  { path: '/admin/applications', element: <ApplicationsPage /> },
  { path: '/admin/feedback', element: <FeedbackPage /> },
  { path: '/admin/members', element: <MembersPage /> },
  { path: '/admin/reports', element: <ReportsPage /> },
  { path: '/admin/appeals', element: <AppealsPage /> },
  { path: '/admin/audit', element: <AuditPage /> },
  { path: '*', element: <AnalyticsPage /> },
]);
