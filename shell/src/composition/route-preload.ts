import type { ExposedModule } from '@campus/kit/remote-modules';
import type { RemoteName } from '../app/runtime-config';
import { warmRemote } from './remote-slot';

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
 * is still being checked, the landing route's module is loaded (its remote's manifest and
 * remoteEntry.js, the exposed module's own chunks and the shared modules it needs that the shell
 * has not loaded yet, such as the kit's post card), so the page renders at once when the session
 * answers, without suspending. A failure is left to the route's RemoteSlot, which loads the module
 * itself and shows its error and Retry.
 */
export function preloadLandingRemote(pathname: string, signedIn: boolean): void {
  const landing = signedIn ? landingRemote(pathname) : null;
  if (!landing) return;
  warmRemote(landing.remote, landing.exposed as ExposedModule<MemberRemote>);
  for (const load of LANDING_SHARED[landing.exposed]?.() ?? []) load.catch(() => undefined);
}

/**
 * The shared modules a landing page renders with that the shell's own first load does not carry
 * (the shell provides them): requested with the page's remote rather than after its code has
 * arrived and asked for them, one round trip later. Only a head start: the remote asks for what it
 * needs either way.
 */
const LANDING_SHARED: Partial<Record<string, () => Promise<unknown>[]>> = {
  FeedPage: () => [
    import('@campus/kit/post-card'),
    import('@campus/kit/text'),
    import('@campus/kit/report'),
    import('swr/infinite'),
  ],
  ProfilePage: () => [
    import('@campus/kit/post-card'),
    import('@campus/kit/text'),
    import('@campus/kit/report'),
    import('@campus/kit/follow-button'),
  ],
  NotificationsPage: () => [import('swr/infinite')],
};
