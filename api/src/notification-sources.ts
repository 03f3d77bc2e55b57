/**
 * Where notifications read what they point at. The modules they point into (users, posts,
 * feedback, account applications) create notifications, so the notifications module cannot
 * import them without a cycle: the app hands their services in from here.
 */
import { applicationsById } from './modules/account-applications/service';
import { feedbackMessages } from './modules/feedback/service';
import type { NotificationSources } from './modules/notifications/service';
import { postPreviews } from './modules/posts/service';
import { actorsById } from './modules/users/service';

export function notificationSources(publicUrl: string): NotificationSources {
  return {
    actors: (ids) => actorsById(ids, publicUrl),
    posts: postPreviews,
    feedback: feedbackMessages,
    applications: applicationsById,
  };
}
