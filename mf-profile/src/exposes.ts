// What mf_profile publishes: its rspack config reads these paths (readExposes in rspack.shared.js),
// and the compiler checks each module's props against the kit's map of remote modules.
import type { RemoteExposes } from '@campus/kit/remote-modules';

export const exposes = {
  './ProfilePage': () => import('./profile/profile-page'),
  './EditProfilePage': () => import('./edit-profile/edit-profile-page'),
  './FollowListPage': () => import('./follow-list/follow-list-page'),
  './SettingsPage': () => import('./settings/settings-page'),
  './FirstRunDialog': () => import('./first-run/first-run-dialog'),
} satisfies RemoteExposes<'mf_profile'>;
