// What mf_notifications publishes: its rspack config reads these paths (readExposes in rspack.shared.js),
// and the compiler checks each module's props against the kit's map of remote modules.
import type { RemoteExposes } from '@campus/kit/remote-modules';

export const exposes = {
  './NotificationsPage': () => import('./notifications/notifications-page'),
} satisfies RemoteExposes<'mf_notifications'>;
