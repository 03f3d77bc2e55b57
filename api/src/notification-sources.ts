/**
 * Where notifications read what they point at. The modules they point into (users, posts,
 * feedback, account applications) create notifications, so the notifications module cannot
 * import them without a cycle: the app hands their services in from here.
 *
 * With the app's read caches (`caches`), actors are read through the author cache and posts
 * through the feed's posts (both forgotten by every process's writes, read-caches.ts), so a page
 * of notifications about recently shown members and posts costs one round trip, its own.
 */
import type { NotificationSources } from './modules/notifications/service';
import { toPublicFileUrl } from './platform/storage';
import type { ReadCaches } from './read-caches';
import type { Services } from './services';

export function notificationSources(
  { users, posts, feedback, accountApplications, comments }: Services,
  publicUrl: string,
  caches?: Pick<ReadCaches, 'authors' | 'feed'>,
): NotificationSources {
  return {
    actors: caches
      ? async (ids) => {
          const authors = await caches.authors.byId(ids);
          return new Map(
            [...authors.values()].map((a) => [
              a._id,
              {
                id: a._id,
                name: a.name,
                avatarUrl: a.avatarUrl ? toPublicFileUrl(a.avatarUrl, publicUrl) : null,
              },
            ]),
          );
        }
      : (ids) => users.actorsById(ids, publicUrl),
    posts: caches
      ? async (ids) => {
          const found = await caches.feed.postsById(ids);
          // What postPreviews answers: visible posts only (not deleted, author not suspended).
          return new Map(
            [...found.values()]
              .filter((p) => p.deletedAt == null && p.authorSuspended !== true)
              .map((p) => [p._id, { id: p._id, content: p.content || p.repostComment || '' }]),
          );
        }
      : posts.postPreviews,
    feedback: feedback.feedbackMessages,
    applications: accountApplications.applicationsById,
    comments: comments.commentTexts,
  };
}
