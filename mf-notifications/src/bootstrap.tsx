import { mountStandalone } from '@campus/kit/standalone';
import NotificationsPage from './notifications/notifications-page';

// Only for running this remote alone (`npm run dev -w mf-notifications`).
mountStandalone([{ path: '*', element: <NotificationsPage /> }]);
