import { useEffect } from 'react';
import { matchPath, useLocation } from 'react-router-dom';
import { useSession } from '@campus/kit/session';
import { useUnreadCount } from '@campus/kit/stream';

export const APP_NAME = 'Campus';

/** What each signed-in route is called in the tab title (the route table of app-routes.tsx). */
const SIGNED_IN_TITLES: ReadonlyArray<readonly [pattern: string, title: string]> = [
  ['/', 'Home'],
  ['/search', 'Search'],
  ['/opportunities', 'Opportunities'],
  ['/analytics', 'Analytics'],
  ['/notifications', 'Notifications'],
  ['/settings', 'Settings'],
  ['/profile/:id?', 'Profile'],
  ['/profile/:id/edit', 'Edit profile'],
  ['/profile/:userId/following', 'Following'],
  ['/profile/:userId/followers', 'Followers'],
  ['/post/:id', 'Post'],
  ['/tags/:tag', 'Tag'],
  ['/bookmarks', 'Bookmarks'],
];

/** The admin's pages: anyone else gets the not-found page there, and its title (issue 41). */
const ADMIN_TITLES: ReadonlyArray<readonly [pattern: string, title: string]> = [
  ['/admin/applications', 'Applications'],
  ['/admin/feedback', 'Feedback'],
  ['/admin/members', 'Members'],
  ['/admin/reports', 'Reports'],
  ['/admin/appeals', 'Appeals'],
  ['/admin/audit', 'Audit log'],
];

const SIGNED_OUT_TITLES: ReadonlyArray<readonly [pattern: string, title: string]> = [
  ['/register', 'Sign up'],
  ['/verify/:token?', 'Verify your e-mail'],
  ['/forgot-password', 'Forgot password'],
  ['/reset-password/:token', 'Reset password'],
];

/**
 * The page's name for `pathname`: signed out, every other path is the sign-in page; an admin page
 * is named only for the admin (app-routes.tsx shows anyone else the not-found page).
 */
export function routeTitle(pathname: string, signedIn: boolean, isAdmin = false): string {
  const table = !signedIn
    ? SIGNED_OUT_TITLES
    : isAdmin
      ? [...SIGNED_IN_TITLES, ...ADMIN_TITLES]
      : SIGNED_IN_TITLES;
  const found = table.find(([pattern]) => matchPath(pattern, pathname));
  if (found) return found[1];
  return signedIn ? 'Page not found' : 'Sign in';
}

/** 'Notifications · Campus', or '(3) Notifications · Campus' with 3 unread notifications. */
export function documentTitle(page: string | null, unread = 0): string {
  const name = page ? `${page} · ${APP_NAME}` : APP_NAME;
  return unread > 0 ? `(${unread}) ${name}` : name;
}

/** Keeps `document.title` on the current route's name and the live unread count. */
export function useDocumentTitle(): void {
  const { pathname } = useLocation();
  const { status, isAdmin } = useSession();
  const signedIn = status === 'authenticated';
  const unread = useUnreadCount({ enabled: signedIn });
  const title =
    status === 'checking'
      ? documentTitle(null)
      : documentTitle(routeTitle(pathname, signedIn, isAdmin), unread);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
