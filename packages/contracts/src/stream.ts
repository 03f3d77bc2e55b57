import { z } from 'zod';
import { idSchema } from './common';
import { notificationSchema } from './notifications';
import { FEED_TABS, feedTabSchema } from './posts';

/**
 * The live stream, `GET /api/stream` (api/README.md "Live stream"): `text/event-stream` with
 * these events. A browser reads it with a plain `EventSource` (its session cookie authenticates
 * it, `withCredentials` across origins); other clients send `Authorization: Bearer` as on every
 * call (never a token in the URL).
 */
export const STREAM_EVENTS = ['notification', 'unread', 'posts', 'heartbeat'] as const;
export type StreamEventName = (typeof STREAM_EVENTS)[number];

/**
 * `event: notification`: a new notification, exactly as `GET /api/notifications` lists it. Its
 * SSE `id:` is the notification's id: send the last one seen as `Last-Event-ID` when reconnecting
 * and the stream first replays every notification created since.
 */
export const streamNotificationEventSchema = notificationSchema;

/** `event: unread`: the member's unread notifications, sent on connect and on every change. */
export const streamUnreadEventSchema = z.object({ count: z.number().int().nonnegative() });
export type StreamUnreadEvent = z.infer<typeof streamUnreadEventSchema>;

/** The largest `count` a `posts` event carries (a pill says '100 new posts' at most). */
export const STREAM_POSTS_MAX_COUNT = 100;

/**
 * `event: posts`: how many posts by other members the tab has that are newer than the client's
 * newest (given when the stream was opened), sent on connect for every followed tab and again
 * when the count changes. To start counting afresh (after showing the new posts), open a new
 * stream with the new newest id.
 */
export const streamPostsEventSchema = z.object({
  tab: feedTabSchema,
  count: z.number().int().nonnegative().max(STREAM_POSTS_MAX_COUNT),
});
export type StreamPostsEvent = z.infer<typeof streamPostsEventSchema>;

/**
 * `event: heartbeat` (data `{}`) every STREAM_HEARTBEAT_MS: an event rather than a comment, so an
 * `EventSource`, which never shows comments, can tell a quiet stream from a dead connection.
 */
export const streamHeartbeatEventSchema = z.strictObject({});

/** The data of each event, by name. */
export const streamEventSchemas = {
  notification: streamNotificationEventSchema,
  unread: streamUnreadEventSchema,
  posts: streamPostsEventSchema,
  heartbeat: streamHeartbeatEventSchema,
} as const satisfies Record<StreamEventName, z.ZodType>;

const TABS_MESSAGE = `tabs must be a comma-separated list of tab:newestPostId (tabs: ${FEED_TABS.join(', ')})`;

/**
 * `GET /api/stream` query: `tabs=for-you:338,following:301`, the feed tabs whose new posts the
 * client wants counted, each with the id of the newest post it shows there (0 when it shows
 * none). No `tabs`: no `posts` events.
 */
export const streamQuerySchema = z.object({
  tabs: z
    .string(TABS_MESSAGE)
    .max(200, TABS_MESSAGE)
    .optional()
    .transform((value, ctx) => {
      const tabs: Array<{ tab: z.infer<typeof feedTabSchema>; since: number }> = [];
      if (value === undefined || value === '') return tabs;
      for (const part of value.split(',')) {
        const match = /^([a-z-]+):(0|[1-9][0-9]{0,15})$/.exec(part.trim());
        const tab = feedTabSchema.safeParse(match?.[1]);
        if (!match || !tab.success || tabs.some((t) => t.tab === tab.data)) {
          ctx.addIssue({ code: 'custom', message: TABS_MESSAGE });
          return z.NEVER;
        }
        tabs.push({ tab: tab.data, since: Number(match[2]) });
      }
      return tabs;
    }),
  /**
   * The id of the last `notification` event seen, for a client that cannot send the
   * `Last-Event-ID` header (a new `EventSource`); the header wins when both come. A bad value is
   * ignored, as a bad header is.
   */
  lastEventId: z.string().max(20).optional(),
});
export type StreamQuery = z.infer<typeof streamQuerySchema>;

/** `Last-Event-ID` request header: the id of the last `notification` event the client saw. */
export const streamLastEventIdSchema = idSchema;

/** How often the stream sends a `heartbeat` event, in milliseconds. */
export const STREAM_HEARTBEAT_MS = 25_000;
/** How many streams one member may hold open; opening one more closes their oldest. */
export const STREAM_MAX_PER_MEMBER = 5;
