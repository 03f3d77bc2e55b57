import { landingRemote } from './route-preload';

describe('landingRemote', () => {
  it.each([
    ['/', 'mf_feed', 'FeedPage'],
    ['/opportunities', 'mf_feed', 'OpportunitiesPage'],
    ['/post/12', 'mf_feed', 'PostDetailPage'],
    ['/notifications', 'mf_notifications', 'NotificationsPage'],
    ['/settings', 'mf_profile', 'SettingsPage'],
    ['/profile', 'mf_profile', 'ProfilePage'],
    ['/profile/7', 'mf_profile', 'ProfilePage'],
    ['/profile/7/', 'mf_profile', 'ProfilePage'],
    ['/profile/7/edit', 'mf_profile', 'EditProfilePage'],
    ['/profile/7/followers', 'mf_profile', 'FollowListPage'],
    ['/profile/7/following', 'mf_profile', 'FollowListPage'],
  ])('%s shows %s/%s', (path, remote, exposed) => {
    expect(landingRemote(path)).toEqual({ remote, exposed });
  });

  it.each(['/analytics', '/search', '/nowhere', '/post', '/profile/7/edit/more'])(
    '%s preloads nothing (never mf_admin)',
    (path) => {
      expect(landingRemote(path)).toBeNull();
    },
  );
});
