// The contract between the shell and the remotes at compile time: every module a remote exposes
// and the props the shell passes it. Types only, so nothing of it exists at run time (it is not
// a shared module). The shell's slots take their ids and props from here; each remote's
// src/exposes.ts is checked against it and is what its rspack config publishes.
import type { ComponentType } from 'react';

/** A page that takes nothing from the shell: it reads the route and the session itself. */
type NoProps = Record<never, never>;

/** `<remote>/<exposed module>` -> the props the shell passes it. */
export interface RemoteModules {
  'mf_feed/FeedPage': NoProps;
  'mf_feed/PostDetailPage': NoProps;
  'mf_feed/PostComposer': { open: boolean; onOpenChange: (open: boolean) => void };
  'mf_feed/OpportunitiesPage': NoProps;
  /** `/search?tab=posts`: post search results for the URL's `q` and filters (issue 40). */
  'mf_feed/PostSearchResults': NoProps;
  /** `/tags/:tag`: a tag's posts, with Follow (issue 40). */
  'mf_feed/TagPage': NoProps;
  /** `/bookmarks`: the caller's bookmarked posts (issue 40). */
  'mf_feed/BookmarksPage': NoProps;
  'mf_profile/ProfilePage': NoProps;
  'mf_profile/EditProfilePage': NoProps;
  'mf_profile/FollowListPage': { kind: 'following' | 'followers' };
  'mf_profile/SettingsPage': NoProps;
  /**
   * The first run after a member's first sign-in (issue 41): a modal dialog over the feed, open
   * while rendered; Skip, Escape or Done call `onClose`.
   */
  'mf_profile/FirstRunDialog': { onClose: () => void };
  'mf_notifications/NotificationsPage': NoProps;
  'mf_admin/AnalyticsPage': NoProps;
  'mf_admin/ApplicationsPage': NoProps;
  'mf_admin/FeedbackPage': NoProps;
  'mf_admin/MembersPage': NoProps;
  'mf_admin/ReportsPage': NoProps;
  'mf_admin/AppealsPage': NoProps;
  'mf_admin/AuditPage': NoProps;
}

export type RemoteModuleId = keyof RemoteModules;

/** The remotes that expose anything: mf_feed, mf_profile, mf_notifications, mf_admin. */
export type RemoteName = RemoteModuleId extends `${infer Remote}/${string}` ? Remote : never;

/** The modules `Remote` exposes, without the remote's prefix ('FeedPage', ...). */
export type ExposedModule<Remote extends RemoteName> = RemoteModuleId extends infer Id
  ? Id extends `${Remote}/${infer Exposed}`
    ? Exposed
    : never
  : never;

/** The props of one exposed module. */
export type RemoteModuleProps<
  Remote extends RemoteName,
  Exposed extends ExposedModule<Remote>,
> = RemoteModules[`${Remote}/${Exposed}` & RemoteModuleId];

/**
 * What a remote's src/exposes.ts must be: exactly its modules of the map, each a dynamic import
 * of a file whose default export is a component taking those props.
 */
export type RemoteExposes<Remote extends RemoteName> = {
  [Exposed in ExposedModule<Remote> as `./${Exposed}`]: () => Promise<{
    default: ComponentType<RemoteModuleProps<Remote, Exposed>>;
  }>;
};
