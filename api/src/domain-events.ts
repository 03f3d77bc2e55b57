/**
 * What happened, as the API's use cases say it: one union of named events. A use case publishes
 * its events inside the transaction of its writes (`publish`, platform/transactions.ts); they are
 * written to the outbox in that transaction and delivered after the commit, to this process at
 * once and to every other API process through its one change stream on the outbox
 * (platform/event-stream.ts). Read caches, the live stream and indexers subscribe by type
 * (`events.on('post.liked', ...)`), so who reacts to what is an import away, and renaming a field
 * here is a compile error wherever it is read.
 *
 * An event names the documents it changed by id and carries what a subscriber needs to forget
 * exactly what the change may affect (the member whose flags, the post whose page), never more:
 * subscribers read anything else through the services.
 */
export type DomainEvent =
  // Posts. A repost and a comment shared to the timeline are posts too: `post.created`.
  | {
      type: 'post.created';
      postId: number;
      authorId: number;
      createdAt: Date;
      isJdTagged: boolean;
      /** The post this one quotes (a repost, a comment shared to the timeline). */
      originalPostId: number | null;
      /**
       * That post's author: live counts leave out a repost of a member the viewer hides. Absent
       * from events stored before it (read as unknown: only `authorId` is checked).
       */
      originalAuthorId?: number | null;
      /**
       * Its tags (issue 40): the live count of Following counts followed tags' posts. Absent from
       * events stored before them (read as none).
       */
      tags?: string[];
    }
  /** Deleted by its author, or removed by moderation; a repost's count moves with `post.unreposted`. */
  | { type: 'post.deleted'; postId: number; authorId: number }
  | { type: 'post.liked'; postId: number; userId: number }
  | { type: 'post.unliked'; postId: number; userId: number }
  | { type: 'post.reposted'; postId: number; userId: number; repostPostId: number }
  | { type: 'post.unreposted'; postId: number; userId: number; repostPostId: number }
  /** Its author edited its text (a quote's comment); the earlier text is kept as a version. */
  | { type: 'post.edited'; postId: number; authorId: number }
  /** A post moderation removed is back (an appeal was lifted, issue 38). */
  | { type: 'post.restored'; postId: number; authorId: number }
  /** Counts set again from their sources (moderation removed comments under these posts). */
  | { type: 'post.recounted'; postIds: number[] }
  /** The member kept the post in their private bookmarks, or dropped it (issue 40). */
  | { type: 'post.bookmarked'; postId: number; userId: number }
  | { type: 'post.unbookmarked'; postId: number; userId: number }
  // Comments.
  | {
      type: 'comment.created';
      commentId: number;
      postId: number;
      authorId: number;
      parentId: number | null;
    }
  | { type: 'comment.liked'; commentId: number; postId: number; userId: number }
  | { type: 'comment.unliked'; commentId: number; postId: number; userId: number }
  /** Its author edited its text; the earlier text is kept as a version. */
  | { type: 'comment.edited'; commentId: number; postId: number; authorId: number }
  /**
   * Deleted by its author, the post's count moved. `placeholder`: it had replies and stays as a
   * "deleted" placeholder above them. `alsoGone`: a placeholder whose last reply this was, gone too.
   */
  | {
      type: 'comment.deleted';
      commentId: number;
      postId: number;
      authorId: number;
      parentId: number | null;
      placeholder: boolean;
      alsoGone: number[];
    }
  /** Removed by moderation, with its replies. */
  | { type: 'comment.removed'; commentIds: number[]; postId: number }
  /** Comments moderation removed are back (an appeal was lifted), with their replies. */
  | { type: 'comment.restored'; commentIds: number[]; postId: number }
  // Follows.
  | { type: 'follow.created'; followerId: number; followingId: number }
  | { type: 'follow.removed'; followerId: number; followingId: number }
  /** A member followed / unfollowed a tag (issue 40): its posts join / leave their Following tab. */
  | { type: 'tag.followed'; userId: number; tag: string }
  | { type: 'tag.unfollowed'; userId: number; tag: string }
  // Privacy and safety (modules/safety): what each member hides; the caches forget those members'
  // views. A block also ends the follows between the two (`follow.removed`).
  | { type: 'member.blocked'; blockerId: number; blockedId: number }
  | { type: 'member.unblocked'; blockerId: number; blockedId: number }
  | { type: 'member.muted'; muterId: number; mutedId: number }
  | { type: 'member.unmuted'; muterId: number; mutedId: number }
  | { type: 'word.muted'; userId: number; wordId: number }
  | { type: 'word.unmuted'; userId: number; wordId: number }
  // Notifications.
  | { type: 'notification.created'; notificationId: number; userId: number }
  /** Some or all of the member's notifications were marked read. */
  | { type: 'notification.read'; userId: number }
  /** Notifications to the member were withdrawn (an unfollow takes its notification back). */
  | { type: 'notification.withdrawn'; userId: number }
  // Accounts.
  | { type: 'account.registered'; userId: number }
  | { type: 'account.verified'; userId: number }
  /** Name, bio or avatar changed. */
  | { type: 'profile.updated'; userId: number }
  /** Every session issued before now ends: a password change or reset, "sign out everywhere". */
  | { type: 'session.revoked'; userId: number }
  /** A device signed in (modules/sessions). */
  | { type: 'session.started'; userId: number; sessionId: string }
  /** One session ended: signed out (here or from the Sessions list), reused, revoked, key retired. */
  | { type: 'session.ended'; userId: number; sessionId: string }
  /** Suspended by the administrator: sessions refused, posts and comments hidden. */
  | { type: 'account.suspended'; userId: number }
  | { type: 'account.reactivated'; userId: number }
  /** The member deleted their account and all it made; counts elsewhere were recounted. */
  | { type: 'account.deleted'; userId: number }
  // Pictures (modules/media): an upload stored, and uploads whose files were deleted (expired
  // unattached, or their post or account deleted).
  | { type: 'media.uploaded'; mediaId: string; ownerId: number }
  | { type: 'media.deleted'; mediaId: string; ownerId: number }
  // Feedback, applications, reports, invitations, settings.
  | { type: 'feedback.sent'; feedbackId: number; userId: number }
  | { type: 'feedback.updated'; feedbackId: number; userId: number }
  | { type: 'application.submitted'; applicationId: number }
  | { type: 'application.decided'; applicationId: number; status: 'approved' | 'rejected' }
  | { type: 'invitation.used'; invitationId: number; userId: number }
  | {
      type: 'report.filed';
      caseId: number;
      targetType: 'post' | 'comment' | 'user';
      targetId: number;
    }
  /** `gone`: what was reported was deleted or removed first, and the API closed its case. */
  | { type: 'report.resolved'; caseId: number; action: 'remove' | 'dismiss' | 'gone' }
  // Reasons and appeals (issue 38).
  /** A removal or suspension was recorded with its reason. */
  | { type: 'decision.recorded'; decisionId: number; memberId: number }
  /** Decisions about the member no longer stand (an appeal lifted, a reactivation). */
  | { type: 'decision.lifted'; memberId: number }
  | { type: 'appeal.filed'; appealId: number; memberId: number }
  | { type: 'appeal.decided'; appealId: number; memberId: number; outcome: 'lifted' | 'upheld' }
  | { type: 'setting.changed'; key: string }
  /** An e-mail was queued (platform/mail-queue.ts): the workers look for mail due. */
  | { type: 'mail.queued' }
  // Live streams: another process opened one stream too many for the member; these keys end.
  | { type: 'stream.superseded'; keys: string[] };

export type DomainEventType = DomainEvent['type'];
export type DomainEventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;
