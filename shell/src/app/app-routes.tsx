import { lazy, Suspense, useEffect, useRef } from 'react';
import { Navigate, Route, Routes, useLocation, useParams } from 'react-router-dom';
import { forgetPrefetched } from '@campus/kit/prefetch';
import type { ExposedModule, RemoteModuleProps, RemoteName } from '@campus/kit/remote-modules';
import { useSession } from '@campus/kit/session';
import { forgetFirstRun } from '../auth/first-run';
import { PageSkeleton, type PageShape } from '../composition/page-skeleton';
import { registerAdminRemote } from '../composition/remote-registry';
import { RemoteSlot } from '../composition/remote-slot';
import { AppLayout } from '../layout/app-layout';
import { FullScreenLoading } from '../layout/full-screen-loading';
import { NotFoundPage } from '../not-found/not-found-page';
import { useDocumentTitle } from './document-title';
import { useRuntimeConfig } from './runtime-config-context';
import { useScrollToTopOnNavigate } from './scroll-on-navigate';

// The signed-out pages (and zod and the form library they validate with) are loaded only when
// someone is signed out: a signed-in member's first load carries none of them.
const ForgotPasswordPage = lazy(() =>
  import('../auth/forgot-password-page').then((m) => ({ default: m.ForgotPasswordPage })),
);
const LoginPage = lazy(() => import('../auth/login-page').then((m) => ({ default: m.LoginPage })));
const RegisterPage = lazy(() =>
  import('../auth/register-page').then((m) => ({ default: m.RegisterPage })),
);
const ResetPasswordPage = lazy(() =>
  import('../auth/reset-password-page').then((m) => ({ default: m.ResetPasswordPage })),
);
const VerifyEmailPage = lazy(() =>
  import('../auth/verify-email-page').then((m) => ({ default: m.VerifyEmailPage })),
);

// Pages a member reaches only by asking for them (the search page and its people search) or that
// only a failing API shows: fetched then, so the landing page's first load carries none of them.
const AiSearchPage = lazy(() =>
  import('../search/ai-search-page').then((m) => ({ default: m.AiSearchPage })),
);
const SessionUnreachable = lazy(() =>
  import('./session-unreachable').then((m) => ({ default: m.SessionUnreachable })),
);

/**
 * Spec §2: the signed-in and the signed-out route tables, and the spinner while checking (or the
 * retry state while the API cannot confirm the stored login). Every route sets the tab title,
 * and every new page starts at the top.
 */
export function AppRoutes() {
  const { status, unreachable } = useSession();
  useBootFrameUntilReady(status === 'checking' && !unreachable);
  useDocumentTitle();
  useScrollToTopOnNavigate();
  useEarlyDataOnlyOnLanding();
  useEffect(() => {
    // Signed out: a first run still pending in this tab is forgotten (issue 41).
    if (status === 'unauthenticated') forgetFirstRun();
  }, [status]);
  if (status === 'checking') {
    return unreachable ? (
      <Suspense fallback={<FullScreenLoading />}>
        <SessionUnreachable />
      </Suspense>
    ) : (
      <FullScreenLoading />
    );
  }
  return status === 'authenticated' ? <SignedInRoutes /> : <SignedOutRoutes />;
}

/**
 * index.html draws the app's frame (sidebar, or header and bottom bar) before any script has
 * arrived (issue 41); it stays under the spec's "Loading..." while the session is checked and
 * goes once a page (or the session's retry state) is shown.
 */
function useBootFrameUntilReady(checking: boolean) {
  useEffect(() => {
    if (!checking) document.getElementById('boot-frame')?.remove();
  }, [checking]);
}

/**
 * The entry script's early answers (early-requests.ts) are for the page the member landed on:
 * once they navigate elsewhere, whatever was not taken is dropped, and every page shown later
 * fetches its own data (spec §9: the feed is always fetched afresh when shown).
 */
function useEarlyDataOnlyOnLanding() {
  const { pathname } = useLocation();
  const landing = useRef(pathname);
  useEffect(() => {
    if (pathname !== landing.current) forgetPrefetched();
  }, [pathname]);
}

function SignedOutRoutes() {
  return (
    <Suspense fallback={<FullScreenLoading />}>
      <SignedOutRouteTable />
    </Suspense>
  );
}

function SignedOutRouteTable() {
  return (
    <Routes>
      <Route path="/register" element={<RegisterPage />} />
      <Route path="/verify/:token?" element={<VerifyEmailPage />} />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/reset-password/:token" element={<ResetPasswordPage />} />
      <Route path="*" element={<LoginPage />} />
    </Routes>
  );
}

function SignedInRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        <Route index element={<FeedRoute />} />
        <Route
          path="search"
          element={
            <Suspense fallback={<PageSkeleton />}>
              <AiSearchPage />
            </Suspense>
          }
        />
        <Route
          path="opportunities"
          element={<Page remote="mf_feed" exposed="OpportunitiesPage" what="opportunities" />}
        />
        <Route path="analytics" element={<AnalyticsRoute />} />
        <Route path="admin" element={<Navigate to="/admin/applications" replace />} />
        {ADMIN_PAGES.map(({ path, exposed, what }) => (
          <Route key={path} path={path} element={<AdminRoute exposed={exposed} what={what} />} />
        ))}
        <Route
          path="profile/:id?"
          element={
            <Page remote="mf_profile" exposed="ProfilePage" what="this profile" shape="profile" />
          }
        />
        <Route
          path="profile/:id/edit"
          element={
            <Page
              remote="mf_profile"
              exposed="EditProfilePage"
              what="the profile editor"
              shape="form"
            />
          }
        />
        <Route
          path="settings"
          element={
            <Page remote="mf_profile" exposed="SettingsPage" what="your settings" shape="form" />
          }
        />
        <Route path="profile/:userId/following" element={<FollowListRoute kind="following" />} />
        <Route path="profile/:userId/followers" element={<FollowListRoute kind="followers" />} />
        <Route
          path="notifications"
          element={
            <Page
              remote="mf_notifications"
              exposed="NotificationsPage"
              what="your notifications"
              shape="list"
            />
          }
        />
        <Route path="post" element={<Navigate to="/" replace />} />
        <Route path="post/:id" element={<PostRoute />} />
        <Route path="tags/:tag" element={<TagRoute />} />
        <Route
          path="bookmarks"
          element={<Page remote="mf_feed" exposed="BookmarksPage" what="your bookmarks" />}
        />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

/**
 * A member page that takes no props from the shell (kit's map of remote modules); `shape`: what
 * its skeleton looks like while its code arrives (posts unless said).
 */
function Page({ shape, ...props }: MemberPage & { what: string; shape?: PageShape }) {
  return <RemoteSlot {...props} fallback={<PageSkeleton shape={shape} />} />;
}

type MemberPage = {
  [R in 'mf_feed' | 'mf_profile' | 'mf_notifications']: {
    remote: R;
    exposed: PagesWithoutProps<R>;
  };
}['mf_feed' | 'mf_profile' | 'mf_notifications'];

type PagesWithoutProps<R extends RemoteName> = {
  [E in ExposedModule<R>]: Record<never, never> extends RemoteModuleProps<R, E> ? E : never;
}[ExposedModule<R>];

function FeedRoute() {
  // The feed has a right column on wide screens: its skeleton takes the same width (no shift).
  return (
    <RemoteSlot
      remote="mf_feed"
      exposed="FeedPage"
      what="the feed"
      fallback={<PageSkeleton rightColumn />}
    />
  );
}

function PostRoute() {
  const { id } = useParams();
  // A new id is a new page: remount so no state of the previous post leaks in.
  return <Page key={id} remote="mf_feed" exposed="PostDetailPage" what="this post" />;
}

function TagRoute() {
  const { tag } = useParams();
  // Another tag is another page (issue 40): nothing of the previous tag's list or follow state.
  return <Page key={tag} remote="mf_feed" exposed="TagPage" what="this tag" />;
}

function FollowListRoute({ kind }: { kind: 'following' | 'followers' }) {
  const { userId } = useParams();
  return (
    <RemoteSlot
      key={`${kind}/${userId}`}
      remote="mf_profile"
      exposed="FollowListPage"
      props={{ kind }}
      what={kind === 'following' ? 'this following list' : 'this followers list'}
      fallback={<PageSkeleton shape="list" />}
    />
  );
}

/** Only the admin gets here; anyone else is sent home before anything of the dashboard loads. */
function AnalyticsRoute() {
  const { isAdmin } = useSession();
  const config = useRuntimeConfig();
  if (!isAdmin) return <Navigate to="/" replace />;
  registerAdminRemote(config);
  return (
    <RemoteSlot
      remote="mf_admin"
      exposed="AnalyticsPage"
      what="the analytics dashboard"
      fallback={<PageSkeleton shape="dashboard" />}
    />
  );
}

/** The admin's operations pages (issue 18), each an exposed page of mf_admin. */
const ADMIN_PAGES: readonly { path: string; exposed: AdminPage; what: string }[] = [
  { path: 'admin/applications', exposed: 'ApplicationsPage', what: 'the applications' },
  { path: 'admin/feedback', exposed: 'FeedbackPage', what: 'the feedback' },
  { path: 'admin/members', exposed: 'MembersPage', what: 'the members' },
  { path: 'admin/reports', exposed: 'ReportsPage', what: 'the reports' },
  { path: 'admin/appeals', exposed: 'AppealsPage', what: 'the appeals' },
  { path: 'admin/audit', exposed: 'AuditPage', what: 'the audit log' },
];

type AdminPage = Exclude<PagesWithoutProps<'mf_admin'>, 'AnalyticsPage'>;

/**
 * An admin page: anyone but the admin gets the not-found page (the API refuses them anyway), and
 * registers no mf_admin file.
 */
function AdminRoute({ exposed, what }: { exposed: AdminPage; what: string }) {
  const { isAdmin } = useSession();
  const config = useRuntimeConfig();
  if (!isAdmin) return <NotFoundPage />;
  registerAdminRemote(config);
  return (
    <RemoteSlot
      key={exposed}
      remote="mf_admin"
      exposed={exposed}
      what={what}
      fallback={<PageSkeleton shape="list" />}
    />
  );
}
