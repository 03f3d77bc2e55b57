/**
 * Every notification type in one place: what it is created from, what is stored for it, and how
 * clients see it (one member of contracts' `notificationSchema` per type). A new type is added
 * here and in contracts' NOTIFICATION_TYPES; the compiler then asks for each of its parts.
 */
import {
  NOTIFICATION_COMMENT_TEXT_LENGTH,
  type DecisionKind,
  type ModerationReason,
  type Notification,
  type NotificationOf,
  type NotificationType,
} from '@campus/contracts';
import type { NotificationDoc } from './model';

/** What a notification of each type is created from (besides its recipient). */
export interface NotificationInputs {
  like: { actorId: number; postId: number };
  /** `commentId`: the comment, whose first words the notification shows. */
  comment: { actorId: number; postId: number; commentId: number };
  /** `postId`: the post under which the recipient's comment was replied to; `commentId`: the reply. */
  reply: { actorId: number; postId: number; commentId: number };
  repost: { actorId: number; postId: number };
  follow: { actorId: number };
  feedback: { actorId: number; feedbackId: number };
  /** The applicant has no account, so there is no actor. */
  account_application: { applicationId: number };
  /** `actorId`: the administrator who replied; `reply`: what they wrote. */
  feedback_reply: { actorId: number; feedbackId: number; reply: string };
  /**
   * Never names who reported: there is no actor. `content`: the start of what was removed;
   * `decisionId` and `reason`: the administrator's decision (issue 38).
   */
  content_removed: {
    targetType: 'post' | 'comment';
    content: string;
    decisionId: number;
    reason: ModerationReason;
  };
  /** An appeal's outcome (issue 38); `content`: the start of what was removed, if anything. */
  appeal_decided: {
    decisionId: number;
    decisionKind: DecisionKind;
    outcome: 'lifted' | 'upheld';
    content: string | null;
    response: string | null;
  };
  /**
   * The recipient was @mentioned (issue 40) by `actorId` in the post `postId` (`commentId`
   * null), or in the comment `commentId` under it. Once per recipient and post or comment.
   */
  mention: { actorId: number; postId: number; commentId: number | null };
}

/** The references stored on a notification. */
export type StoredReferences = Pick<
  NotificationDoc,
  'actorId' | 'postId' | 'feedbackId' | 'applicationId' | 'commentId'
> & {
  /** Makes the notification exist at most once (a unique sparse index enforces it). */
  dedupeKey?: string;
  /** Text carried by the notification itself (feedback_reply, content_removed). */
  detail?: string | null;
  targetType?: 'post' | 'comment';
} & Partial<
    Pick<NotificationDoc, 'decisionId' | 'decisionKind' | 'category' | 'reasonText' | 'outcome'>
  >;

/** What stored references point at, loaded in one batch per kind for a whole list. */
export interface LoadedReferences {
  /** null when the account cannot be found. */
  actor(id: number | null): { id: number; name: string; avatarUrl: string | null } | null;
  /** A visible post's preview; null once the post is deleted. */
  post(id: number | null): { id: number; content: string } | null;
  feedback(id: number | null): { message: string } | null;
  /** A comment's text; null once it is gone. */
  comment(id: number | null): { content: string } | null;
  application(id: number | null): { name: string; contactInfo: string; message: string } | null;
}

type OwnFields<T extends NotificationType> = Omit<
  NotificationOf<T>,
  'id' | 'type' | 'isRead' | 'createdAt'
>;

export interface NotificationKind<T extends NotificationType> {
  /** `recipientId`: whom it is for (a key of a notification that exists once per recipient). */
  store(input: NotificationInputs[T], recipientId: number): StoredReferences;
  /** The fields of its client view besides id, type, isRead and createdAt. */
  present(doc: NotificationDoc, refs: LoadedReferences): OwnFields<T>;
}

const NO_REFERENCES = {
  actorId: null,
  postId: null,
  feedbackId: null,
  applicationId: null,
  commentId: null,
};

type OnPost = 'like' | 'repost';

/** A member acting on the recipient's post (or under it). */
function onPost<T extends OnPost>(options: { once?: T } = {}): NotificationKind<T> {
  return {
    store: ({ actorId, postId }) => ({
      ...NO_REFERENCES,
      actorId,
      postId,
      // Once per actor and post, however often they unlike and like again.
      ...(options.once ? { dedupeKey: `${options.once}:${postId}:${actorId}` } : {}),
    }),
    present: (n, refs) =>
      ({ actor: refs.actor(n.actorId), post: refs.post(n.postId) }) as OwnFields<T>,
  };
}

/** What the keys of the mention notifications about a post (in it, or under it) start with. */
export function mentionKeyPrefix(postId: number): string {
  return `mention:${postId}:`;
}

/** The start of the comment a notification points at, or null (none, or gone). */
function commentStart(refs: LoadedReferences, commentId: number | null | undefined) {
  return (
    refs.comment(commentId ?? null)?.content.slice(0, NOTIFICATION_COMMENT_TEXT_LENGTH) ?? null
  );
}

/** A comment or a reply under the recipient's post or comment: it shows what was said, and where. */
function commentOnPost<T extends 'comment' | 'reply'>(): NotificationKind<T> {
  return {
    store: ({ actorId, postId, commentId }) => ({ ...NO_REFERENCES, actorId, postId, commentId }),
    present: (n, refs) =>
      ({
        actor: refs.actor(n.actorId),
        post: refs.post(n.postId),
        commentText: commentStart(refs, n.commentId),
        // Where the post page scrolls to; null once the comment is gone (like its text).
        commentId: refs.comment(n.commentId ?? null) ? n.commentId! : null,
      }) as OwnFields<T>,
  };
}

export const notificationKinds: { [T in NotificationType]: NotificationKind<T> } = {
  like: onPost({ once: 'like' }),
  comment: commentOnPost(),
  reply: commentOnPost(),
  repost: onPost({ once: 'repost' }),
  follow: {
    // Unfollowing withdraws it (follows service), so toggling cannot flood anyone.
    store: ({ actorId }) => ({ ...NO_REFERENCES, actorId }),
    present: (n, refs) => ({ actor: refs.actor(n.actorId) }),
  },
  feedback: {
    store: ({ actorId, feedbackId }) => ({ ...NO_REFERENCES, actorId, feedbackId }),
    present: (n, refs) => ({ actor: refs.actor(n.actorId), feedback: refs.feedback(n.feedbackId) }),
  },
  account_application: {
    store: ({ applicationId }) => ({ ...NO_REFERENCES, applicationId }),
    present: (n, refs) => ({ actor: null, application: refs.application(n.applicationId) }),
  },
  feedback_reply: {
    store: ({ actorId, feedbackId, reply }) => ({
      ...NO_REFERENCES,
      actorId,
      feedbackId,
      detail: reply,
    }),
    present: (n, refs) => ({
      actor: refs.actor(n.actorId),
      feedback: refs.feedback(n.feedbackId),
      reply: n.detail ?? '',
    }),
  },
  content_removed: {
    store: ({ targetType, content, decisionId, reason }) => ({
      ...NO_REFERENCES,
      targetType,
      detail: content,
      decisionId,
      category: reason.category,
      reasonText: reason.text,
    }),
    present: (n) => ({
      actor: null,
      targetType: n.targetType ?? 'post',
      content: n.detail ?? '',
      // Notifications stored before reasons (issue 38) have neither.
      decisionId: n.decisionId ?? null,
      reason: n.category ? { category: n.category, text: n.reasonText ?? null } : null,
      appealed: n.appealed === true,
    }),
  },
  appeal_decided: {
    store: ({ decisionId, decisionKind, outcome, content, response }) => ({
      ...NO_REFERENCES,
      decisionId,
      decisionKind,
      outcome,
      detail: content,
      reasonText: response,
    }),
    present: (n) => ({
      actor: null,
      outcome: n.outcome ?? 'upheld',
      decisionKind: n.decisionKind ?? 'post_removal',
      content: n.detail ?? null,
      response: n.reasonText ?? null,
    }),
  },
  mention: {
    store: ({ actorId, postId, commentId }, recipientId) => ({
      ...NO_REFERENCES,
      actorId,
      postId,
      commentId,
      // Once per recipient and post (or comment): an edit that keeps or re-adds the mention
      // notifies no one again. Starts with the post: a post's deletion finds them by prefix.
      dedupeKey: `${mentionKeyPrefix(postId)}${commentId === null ? 'p' : `c${commentId}`}:${recipientId}`,
    }),
    present: (n, refs) => ({
      actor: refs.actor(n.actorId),
      post: refs.post(n.postId),
      commentText: n.commentId ? commentStart(refs, n.commentId) : null,
      commentId: n.commentId ?? null,
    }),
  },
};

/** The client view of a stored notification; null for a type this API no longer knows. */
export function presentNotification(
  doc: NotificationDoc,
  refs: LoadedReferences,
): Notification | null {
  const kind = notificationKinds[doc.type] as NotificationKind<NotificationType> | undefined;
  // Stored by an older version; the client union has no member for it.
  if (!kind) return null;
  return {
    id: doc._id,
    type: doc.type,
    isRead: doc.isRead,
    createdAt: doc.createdAt.toISOString(),
    ...kind.present(doc, refs),
  } as Notification;
}
