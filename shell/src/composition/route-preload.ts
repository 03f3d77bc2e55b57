import { preloadRemote } from '@module-federation/enhanced/runtime';
import type { RemoteName } from '../app/runtime-config';

type MemberRemote = Exclude<RemoteName, 'mf_admin'>;

/**
 * The remote module a signed-in member's landing path shows (app-routes.tsx's table), or null.
 * Never mf_admin: a member downloads nothing of it, and the admin's dashboard loads it when the
 * session says the user is the administrator.
 */
export function landingRemote(pathname: string): { remote: MemberRemote; exposed: string } | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return { remote: 'mf_feed', exposed: 'FeedPage' };
  if (path === '/opportunities') return { remote: 'mf_feed', exposed: 'OpportunitiesPage' };
  if (/^\/post\/[^/]+$/.test(path)) return { remote: 'mf_feed', exposed: 'PostDetailPage' };
  if (path === '/notifications')
    return { remote: 'mf_notifications', exposed: 'NotificationsPage' };
  if (path === '/settings') return { remote: 'mf_profile', exposed: 'SettingsPage' };
  if (/^\/profile\/[^/]+\/(following|followers)$/.test(path)) {
    return { remote: 'mf_profile', exposed: 'FollowListPage' };
  }
  if (/^\/profile\/[^/]+\/edit$/.test(path))
    return { remote: 'mf_profile', exposed: 'EditProfilePage' };
  if (/^\/profile(\/[^/]+)?$/.test(path)) return { remote: 'mf_profile', exposed: 'ProfilePage' };
  return null;
}

/**
 * No waterfall on a signed-in load: as soon as the remotes are registered, and while the session
 * is still being checked, the landing route's remote starts downloading (its manifest,
 * remoteEntry.js and the exposed module's own chunks, not the shared libraries the shell
 * provides), so the page's code is there when the session answers. A failure is left to the
 * route's RemoteSlot, which loads the module itself and shows its error and Retry.
 */
export function preloadLandingRemote(pathname: string, signedIn: boolean): void {
  const landing = signedIn ? landingRemote(pathname) : null;
  if (!landing) return;
  preloadRemote([
    {
      nameOrAlias: landing.remote,
      exposes: [landing.exposed],
      resourceCategory: 'sync',
      share: false,
      depsRemote: false,
    },
  ]).catch(() => undefined);
}
