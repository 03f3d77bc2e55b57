import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useParams } from 'react-router-dom';
import type { ExposedModule, RemoteModuleProps, RemoteName } from '@campus/kit/remote-modules';
import { useSession } from '@campus/kit/session';
import { PageSkeleton } from '../composition/page-skeleton';
import { registerAdminRemote } from '../composition/remote-registry';
import { RemoteSlot } from '../composition/remote-slot';
import { AppLayout } from '../layout/app-layout';
import { FullScreenLoading } from '../layout/full-screen-loading';
import { NotFoundPage } from '../not-found/not-found-page';
import { AiSearchPage } from '../search/ai-search-page';
import { useRuntimeConfig } from './runtime-config-context';

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

/** Spec §2: the signed-in and the signed-out route tables, and the spinner while checking. */
export function AppRoutes() {
  const { status } = useSession();
  if (status === 'checking') return <FullScreenLoading />;
  return status === 'authenticated' ? <SignedInRoutes /> : <SignedOutRoutes />;
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
        <Route path="search" element={<AiSearchPage />} />
        <Route
          path="opportunities"
          element={<Page remote="mf_feed" exposed="OpportunitiesPage" what="opportunities" />}
        />
        <Route path="analytics" element={<AnalyticsRoute />} />
        <Route
          path="profile/:id?"
          element={<Page remote="mf_profile" exposed="ProfilePage" what="this profile" />}
        />
        <Route
          path="profile/:id/edit"
          element={<Page remote="mf_profile" exposed="EditProfilePage" what="the profile editor" />}
        />
        <Route
          path="settings"
          element={<Page remote="mf_profile" exposed="SettingsPage" what="your settings" />}
        />
        <Route path="profile/:userId/following" element={<FollowListRoute kind="following" />} />
        <Route path="profile/:userId/followers" element={<FollowListRoute kind="followers" />} />
        <Route
          path="notifications"
          element={
            <Page remote="mf_notifications" exposed="NotificationsPage" what="your notifications" />
          }
        />
        <Route path="post" element={<Navigate to="/" replace />} />
        <Route path="post/:id" element={<PostRoute />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

/** A member page that takes no props from the shell (kit's map of remote modules). */
function Page(props: MemberPage & { what: string }) {
  return <RemoteSlot {...props} fallback={<PageSkeleton />} />;
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
  return <Page remote="mf_feed" exposed="FeedPage" what="the feed" />;
}

function PostRoute() {
  const { id } = useParams();
  // A new id is a new page: remount so no state of the previous post leaks in.
  return <Page key={id} remote="mf_feed" exposed="PostDetailPage" what="this post" />;
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
      fallback={<PageSkeleton />}
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
      fallback={<PageSkeleton />}
    />
  );
}
