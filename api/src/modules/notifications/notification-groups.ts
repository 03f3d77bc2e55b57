import { trusted } from 'mongoose';
import {
  NOTIFICATION_GROUP_ACTORS,
  type NotificationGroup,
  type NotificationGroupPage,
  type NotificationType,
} from '@campus/contracts';
import type { AppContext } from '../../context';
import { groupKeyOf, isSharedKey, membersFilter } from './groups';
import { notificationsOf, type NotificationDoc } from './model';
import { loadReferences } from './present';
import { presentNotification } from './registry';
import { hidesActor, hidesView } from './screen';
import { viewerSafety } from '../safety/relations';

/** Grouped paging reads the recipient's notifications in batches of this many... */
const GROUP_SCAN_BATCH = 200;
/** ...and at most this many per page (a page may then end early, its cursor still exact). */
const GROUP_SCAN_LIMIT = 2_000;

/**
 * A place in the recipient's notifications in date order: newest first by `createdAt`, then by
 * id (notifications of one instant). Ids alone are not date order: imported or seeded
 * notifications, and ids taken before a slow transaction committed, come out of it (issue 41).
 */
interface Position {
  at: Date;
  id: number;
}

const positionOf = (n: Pick<NotificationDoc, '_id' | 'createdAt'>): Position => ({
  at: n.createdAt,
  id: n._id,
});

/** The notifications after `p` in date order (older, or as old with a smaller id). */
const below = (p: Position) => ({
  $or: [{ createdAt: trusted({ $lt: p.at }) }, { createdAt: p.at, _id: trusted({ $lt: p.id }) }],
});

/** The notifications at `p` or before it in date order (newer, or as old with an id as large). */
const atOrAbove = (p: Position) => ({
  $or: [{ createdAt: trusted({ $gt: p.at }) }, { createdAt: p.at, _id: trusted({ $gte: p.id }) }],
});

const newestFirst = (a: NotificationDoc, b: NotificationDoc) =>
  b.createdAt.getTime() - a.createdAt.getTime() || b._id - a._id;

/**
 * Where the page after the cursor `before` (a notification's id) starts: that notification's
 * place. If it is gone meanwhile (withdrawn by an unfollow, a deleted comment), the place of the
 * recipient's next notification by id stands in for it; undefined when none is left below.
 */
async function cursorPosition(
  ctx: AppContext,
  userId: number,
  before: number,
): Promise<Position | undefined> {
  const cursor = await notificationsOf(ctx)
    .findOne({ userId, _id: trusted({ $lte: before }) }, { _id: 1, createdAt: 1 })
    .sort({ _id: -1 })
    .lean<Pick<NotificationDoc, '_id' | 'createdAt'>>();
  return cursor ? positionOf(cursor) : undefined;
}

/**
 * One page of the recipient's notifications in groups (groups.ts), newest group first: in date
 * order of each group's newest member. A group belongs to the page where its newest member
 * falls: the page walks the notifications after the cursor newest first, and a key met for the
 * first time starts a group unless the group has a member at or above the cursor (it was on an
 * earlier page). So pages never repeat or skip a group, however groups grow meanwhile (a group
 * that gains a member moves to the top, which the live stream shows). Round trips: the cursor's
 * place, the walk (usually one batch), one check of earlier pages, the members of the page's
 * groups, then what they point at.
 */
export async function listNotificationGroups(
  ctx: AppContext,
  userId: number,
  page: { before?: number; limit: number },
): Promise<NotificationGroupPage> {
  const { timezone } = ctx.config;
  const keyOf = (n: NotificationDoc) => groupKeyOf(n, timezone);
  const safety = await viewerSafety(ctx, userId);
  const from =
    page.before === undefined ? undefined : await cursorPosition(ctx, userId, page.before);
  if (page.before !== undefined && from === undefined) return { groups: [], nextCursor: null };
  const heads: Array<{ key: string; head: NotificationDoc }> = [];
  const seen = new Set<string>();
  let walked = from;
  let scanned = 0;
  let exhausted = false;
  while (heads.length <= page.limit && scanned < GROUP_SCAN_LIMIT) {
    const batch = await notificationsOf(ctx)
      .find({ userId, ...(walked !== undefined ? below(walked) : {}) })
      .sort({ createdAt: -1, _id: -1 })
      .limit(GROUP_SCAN_BATCH)
      .lean<NotificationDoc[]>();
    scanned += batch.length;
    const firsts: Array<{ key: string; head: NotificationDoc }> = [];
    for (const n of batch) {
      if (hidesActor(safety, n)) continue;
      const key = keyOf(n);
      if (seen.has(key)) continue;
      seen.add(key);
      firsts.push({ key, head: n });
    }
    const shown = await keysWithMembersFrom(ctx, userId, from, firsts, timezone);
    for (const first of firsts) if (!shown.has(first.key)) heads.push(first);
    if (batch.length < GROUP_SCAN_BATCH) {
      exhausted = true;
      break;
    }
    walked = positionOf(batch.at(-1)!);
  }
  const pageHeads = heads.slice(0, page.limit);
  const nextCursor =
    heads.length > page.limit
      ? pageHeads.at(-1)!.head._id
      : exhausted || walked === undefined
        ? null
        : // The walk stopped early: continue after the last notification it read.
          walked.id;
  const members = await membersOf(ctx, userId, pageHeads, timezone);
  if (!safety.empty)
    for (const [key, list] of members)
      members.set(
        key,
        list.filter((m) => !hidesActor(safety, m)),
      );
  const actorIds = new Map<string, number[]>();
  for (const { key } of pageHeads) {
    const distinct = [
      ...new Set(members.get(key)!.flatMap((m) => (m.actorId === null ? [] : [m.actorId]))),
    ];
    actorIds.set(key, distinct);
  }
  const refs = await loadReferences(
    ctx,
    pageHeads.map((h) => h.head),
    [...actorIds.values()].flatMap((a) => a.slice(0, NOTIFICATION_GROUP_ACTORS)),
  );
  const groups = pageHeads.flatMap(({ key, head }): NotificationGroup[] => {
    const latest = presentNotification(head, refs);
    if (!latest || hidesView(safety, latest)) return [];
    const group = members.get(key)!;
    const actors = actorIds.get(key)!;
    return [
      {
        key,
        type: head.type,
        latest,
        actors: actors.slice(0, NOTIFICATION_GROUP_ACTORS).flatMap((id) => refs.actor(id) ?? []),
        actorsCount: actors.length,
        ids: group.map((m) => m._id),
        isRead: group.every((m) => m.isRead),
        createdAt: head.createdAt.toISOString(),
      },
    ];
  });
  return { groups, nextCursor };
}

/** The keys among `firsts` whose group has a member at or above `from` (an earlier page's). */
async function keysWithMembersFrom(
  ctx: AppContext,
  userId: number,
  from: Position | undefined,
  firsts: Array<{ key: string }>,
  timezone: string,
): Promise<Set<string>> {
  if (from === undefined) return new Set();
  const earlier = await findMembers(
    ctx,
    userId,
    firsts.map((f) => f.key),
    timezone,
    { _id: 1, type: 1, postId: 1, createdAt: 1 },
    from,
  );
  return new Set(earlier.map((n) => groupKeyOf(n, timezone)));
}

/**
 * The members of the shared groups `keys` (at or above `from`), in at most two queries run
 * together, each one the index `{ userId, type, postId, createdAt }` answers by reading only
 * those groups' members: likes and reposts by post, follows by their days' time range. (One
 * query with an `$or` of the groups' filters read every notification of the recipient.)
 */
async function findMembers(
  ctx: AppContext,
  userId: number,
  keys: string[],
  timezone: string,
  projection: Record<string, 1>,
  from?: Position,
): Promise<NotificationDoc[]> {
  const wanted = new Set<string>();
  const types = new Set<NotificationType>();
  const postIds = new Set<number>();
  let days: { low: Date; high: Date } | undefined;
  for (const key of keys) {
    if (!isSharedKey(key)) continue;
    const filter = membersFilter(key, timezone);
    if (!filter) continue;
    wanted.add(key);
    if (filter.type === 'follow') {
      const range = filter.createdAt as { $gte: Date; $lt: Date };
      days = {
        low: days && days.low < range.$gte ? days.low : range.$gte,
        high: days && days.high > range.$lt ? days.high : range.$lt,
      };
    } else {
      types.add(filter.type as NotificationType);
      postIds.add(filter.postId as number);
    }
  }
  const above = from === undefined ? {} : atOrAbove(from);
  const [onPosts, follows] = await Promise.all([
    postIds.size
      ? notificationsOf(ctx)
          .find(
            {
              userId,
              type: trusted({ $in: [...types] }),
              postId: trusted({ $in: [...postIds] }),
              ...above,
            },
            projection,
          )
          .lean<NotificationDoc[]>()
      : [],
    days
      ? notificationsOf(ctx)
          .find(
            {
              userId,
              type: 'follow',
              postId: null,
              createdAt: trusted({ $gte: days.low, $lt: days.high }),
              ...above,
            },
            projection,
          )
          .lean<NotificationDoc[]>()
      : [],
  ]);
  return [...onPosts, ...follows].filter((n) => wanted.has(groupKeyOf(n, timezone)));
}

/** Every member of each group of the page (newest first), by key. */
async function membersOf(
  ctx: AppContext,
  userId: number,
  heads: Array<{ key: string; head: NotificationDoc }>,
  timezone: string,
): Promise<Map<string, NotificationDoc[]>> {
  const members = new Map<string, NotificationDoc[]>(heads.map((h) => [h.key, []]));
  const found = await findMembers(
    ctx,
    userId,
    heads.map((h) => h.key),
    timezone,
    { _id: 1, type: 1, postId: 1, actorId: 1, isRead: 1, createdAt: 1 },
  );
  found.sort(newestFirst);
  for (const n of found) members.get(groupKeyOf(n, timezone))?.push(n);
  for (const { key, head } of heads) if (!isSharedKey(key)) members.get(key)!.push(head);
  return members;
}
