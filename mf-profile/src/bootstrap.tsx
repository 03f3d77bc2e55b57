import { mountStandalone } from '@campus/kit/standalone';
import EditProfilePage from './edit-profile/edit-profile-page';
import FollowListPage from './follow-list/follow-list-page';
import ProfilePage from './profile/profile-page';

// Only for running this remote alone (`npm run dev -w mf-profile`); the shell mounts the exposed modules.
mountStandalone([
  { path: '/profile/:id?', element: <ProfilePage /> },
  { path: '/profile/:id/edit', element: <EditProfilePage /> },
  { path: '/profile/:userId/following', element: <FollowListPage kind="following" /> },
  { path: '/profile/:userId/followers', element: <FollowListPage kind="followers" /> },
]);
