/**
 * Stored notifications in their client shape: what they point at (actors, post previews,
 * feedback, applications, comments) is read from the modules that own it, in one round trip of
 * parallel reads, through the app's caches where there are some (authors, posts).
 */
import type { Notification as NotificationView } from '@campus/contracts';
import type { AppContext } from '../../context';
import { applicationsById } from '../account-applications/queries';
import { commentTexts } from '../comments/queries';
import { feedbackMessages } from '../feedback/queries';
import { postPreviews } from '../posts/queries';
import { actorsById } from '../users/queries';
import type { NotificationDoc } from './model';
import { presentNotification, type LoadedReferences } from './registry';

type ById<T> = (ctx: AppContext, ids: number[]) => Promise<Map<number, T>>;

function ids(docs: NotificationDoc[], pick: (d: NotificationDoc) => number | null): number[] {
  return [...new Set(docs.map(pick).filter((v): v is number => v !== null))];
}

async function load<T>(ctx: AppContext, byId: ById<T>, wanted: number[]) {
  return wanted.length ? byId(ctx, wanted) : new Map<number, T>();
}

/**
 * What `items` point at (and the actors in `moreActors`), loaded in one round trip: actors,
 * posts, feedback, applications and comments in parallel.
 */
export async function loadReferences(
  ctx: AppContext,
  items: NotificationDoc[],
  moreActors: number[] = [],
): Promise<LoadedReferences> {
  const [actors, posts, feedback, applications, comments] = await Promise.all([
    load(ctx, actorsById, [...new Set([...ids(items, (n) => n.actorId), ...moreActors])]),
    load(
      ctx,
      postPreviews,
      ids(items, (n) => n.postId),
    ),
    load(
      ctx,
      feedbackMessages,
      ids(items, (n) => n.feedbackId),
    ),
    load(
      ctx,
      applicationsById,
      ids(items, (n) => n.applicationId),
    ),
    load(
      ctx,
      commentTexts,
      ids(items, (n) => n.commentId ?? null),
    ),
  ]);
  const from =
    <T>(map: Map<number, T>) =>
    (id: number | null): T | null =>
      (id === null ? undefined : map.get(id)) ?? null;
  return {
    actor: from(actors),
    post: from(posts),
    feedback: from(feedback),
    application: from(applications),
    comment: from(comments),
  };
}

/** Stored notifications in their client shape (types no longer known are left out). */
export async function presentAll(
  ctx: AppContext,
  items: NotificationDoc[],
): Promise<NotificationView[]> {
  const refs = await loadReferences(ctx, items);
  return items.flatMap((n) => presentNotification(n, refs) ?? []);
}
