/**
 * Which notifications show as one row (`GET /api/notifications?grouped=true`): likes of the same
 * post, reposts of the same post, follows of the same calendar day in the app's time zone. Every
 * other notification is a group of one. A group is named by its key, and each key has a filter
 * that finds all its members.
 */
import { TZDate } from '@date-fns/tz';
import { addDays, format, startOfDay } from 'date-fns';
import { trusted, type QueryFilter } from 'mongoose';
import type { NotificationType } from '@campus/contracts';
import type { NotificationDoc } from './model';

type Keyed = Pick<NotificationDoc, '_id' | 'type' | 'postId' | 'createdAt'>;

const DAY_KEY = /^\d{4}-\d{2}-\d{2}$/;

/** The group `doc` belongs to, e.g. `like:338`, `follow:2026-11-24`, `comment#91`. */
export function groupKeyOf(doc: Keyed, timezone: string): string {
  if ((doc.type === 'like' || doc.type === 'repost') && doc.postId !== null)
    return `${doc.type}:${doc.postId}`;
  if (doc.type === 'follow')
    return `follow:${format(new TZDate(doc.createdAt.getTime(), timezone), 'yyyy-MM-dd')}`;
  return `${doc.type}#${doc._id}`;
}

/** Whether a group can have more than one member. */
export function isSharedKey(key: string): boolean {
  return !key.includes('#');
}

/**
 * The filter (besides the recipient) that finds every member of the group `key`; undefined for
 * a key that names no group (e.g. a day that is not a date).
 */
export function membersFilter(
  key: string,
  timezone: string,
): QueryFilter<NotificationDoc> | undefined {
  const single = /^([a-z_]+)#([1-9][0-9]{0,15})$/.exec(key);
  if (single) return { _id: Number(single[2]), type: single[1] as NotificationType };
  const [type, value = ''] = key.split(':');
  if ((type === 'like' || type === 'repost') && /^[1-9][0-9]{0,15}$/.test(value))
    return { type, postId: Number(value) };
  if (type === 'follow' && DAY_KEY.test(value)) {
    const [y, m, d] = value.split('-').map(Number) as [number, number, number];
    const start = startOfDay(new TZDate(y, m - 1, d, timezone));
    if (Number.isNaN(start.getTime())) return undefined;
    return {
      type: 'follow',
      createdAt: trusted({
        $gte: new Date(start.getTime()),
        $lt: new Date(addDays(start, 1).getTime()),
      }),
    };
  }
  return undefined;
}
