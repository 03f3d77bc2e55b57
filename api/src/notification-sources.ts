/**
 * Where notifications read what they point at. The modules they point into (users, posts,
 * feedback, account applications) create notifications, so the notifications module cannot
 * import them without a cycle: the app hands their services in from here.
 */
import type { NotificationSources } from './modules/notifications/service';
import type { Services } from './services';

export function notificationSources(
  { users, posts, feedback, accountApplications, comments }: Services,
  publicUrl: string,
): NotificationSources {
  return {
    actors: (ids) => users.actorsById(ids, publicUrl),
    posts: posts.postPreviews,
    feedback: feedback.feedbackMessages,
    applications: accountApplications.applicationsById,
    comments: comments.commentTexts,
  };
}
