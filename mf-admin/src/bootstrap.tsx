import { mountStandalone } from '@campus/kit/standalone';
import AnalyticsPage from './analytics/analytics-page';

// Only for running this remote alone (`npm run dev -w mf-admin`).
mountStandalone([{ path: '*', element: <AnalyticsPage /> }]);
