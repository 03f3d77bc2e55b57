import { NOTIFICATION_TYPES, notificationSchema, type NotificationType } from '@campus/contracts';
import type { NotificationDoc } from './model';
import { notificationKinds, presentNotification, type LoadedReferences } from './registry';

const refs: LoadedReferences = {
  actor: (id) => (id === null ? null : { id, name: `Member ${id}`, avatarUrl: null }),
  post: (id) => (id === null ? null : { id, content: `Post ${id}` }),
  feedback: (id) => (id === null ? null : { message: `Feedback ${id}` }),
  comment: (id) => (id === null ? null : { content: `Comment ${id} `.repeat(20) }),
  application: (id) =>
    id === null ? null : { name: 'Grace', contactInfo: 'g@x.org', message: `Application ${id}` },
};

const inputs: { [T in NotificationType]: Parameters<(typeof notificationKinds)[T]['store']>[0] } = {
  like: { actorId: 2, postId: 3 },
  comment: { actorId: 2, postId: 3, commentId: 6 },
  reply: { actorId: 2, postId: 3, commentId: 7 },
  repost: { actorId: 2, postId: 3 },
  follow: { actorId: 2 },
  feedback: { actorId: 2, feedbackId: 4 },
  account_application: { applicationId: 5 },
  feedback_reply: { actorId: 2, feedbackId: 4, reply: 'Thanks' },
  content_removed: {
    targetType: 'post',
    content: 'Removed text',
    decisionId: 8,
    reason: { category: 'spam', text: 'Selling things' },
  },
  appeal_decided: {
    decisionId: 8,
    decisionKind: 'post_removal',
    outcome: 'lifted',
    content: 'Removed text',
    response: null,
  },
  mention: { actorId: 2, postId: 3, commentId: 9 },
};

function stored(type: NotificationType): NotificationDoc {
  const kind = notificationKinds[type] as { store(input: unknown, recipientId: number): object };
  return {
    _id: 1,
    userId: 107,
    type,
    isRead: false,
    createdAt: new Date('2026-01-01T00:00:00Z'),
    ...kind.store(inputs[type], 107),
  } as NotificationDoc;
}

describe('notification registry', () => {
  test('when it is read, then it has an entry for every type of the contracts', () => {
    expect(Object.keys(notificationKinds).sort()).toEqual([...NOTIFICATION_TYPES].sort());
  });

  test.each(NOTIFICATION_TYPES)(
    'when a %s notification is stored and presented, then it is exactly its contract member',
    (type) => {
      const view = presentNotification(stored(type), refs);
      const member = notificationSchema.options.find((o) => o.shape.type.value === type)!;
      // Parsing strips unknown fields: equal means no field beyond the member's own.
      expect(member.parse(view)).toStrictEqual(view);
    },
  );

  test('when like and repost are stored, then they exist once per actor and post; others may repeat', () => {
    expect(stored('like').dedupeKey).toBe('like:3:2');
    expect(stored('repost').dedupeKey).toBe('repost:3:2');
    for (const type of ['comment', 'reply', 'follow', 'feedback', 'account_application'] as const)
      expect(stored(type).dedupeKey).toBeUndefined();
  });

  test('when mentions are stored, then each exists once per recipient and post or comment, keyed under the post', () => {
    const kind = notificationKinds.mention;
    const inPost = kind.store({ actorId: 2, postId: 3, commentId: null }, 107);
    expect(inPost.dedupeKey).toBe('mention:3:p:107');
    expect(kind.store({ actorId: 2, postId: 3, commentId: null }, 108).dedupeKey).toBe(
      'mention:3:p:108',
    );
    expect(kind.store({ actorId: 2, postId: 3, commentId: 9 }, 107).dedupeKey).toBe(
      'mention:3:c9:107',
    );
    // Another post's key does not share the prefix of post 3's (`mention:3:`).
    expect(kind.store({ actorId: 2, postId: 31, commentId: null }, 107).dedupeKey).not.toMatch(
      /^mention:3:/,
    );
  });

  test('when a mention in a post is presented, then it has no comment; in a comment, the comment and its start', () => {
    const inPost = {
      ...stored('mention'),
      ...notificationKinds.mention.store({ actorId: 2, postId: 3, commentId: null }, 107),
    } as NotificationDoc;
    expect(presentNotification(inPost, refs)).toMatchObject({
      type: 'mention',
      actor: { id: 2 },
      post: { id: 3 },
      commentText: null,
      commentId: null,
    });
    const view = presentNotification(stored('mention'), refs);
    expect(view).toMatchObject({ type: 'mention', commentId: 9, post: { id: 3 } });
    expect((view as { commentText: string }).commentText).toMatch(/^Comment 9 /);
  });

  test('when an account application is presented, then it has no actor and says who applied', () => {
    expect(presentNotification(stored('account_application'), refs)).toMatchObject({
      actor: null,
      application: { name: 'Grace', message: 'Application 5' },
    });
  });

  test('when the post of a like is gone, then its post is null', () => {
    const view = presentNotification(stored('like'), { ...refs, post: () => null });
    expect(view).toMatchObject({ type: 'like', post: null, actor: { id: 2 } });
  });

  test('when a stored type is no longer known, then it is left out rather than sent', () => {
    const old = { ...stored('like'), type: 'poke' as NotificationType };
    expect(presentNotification(old, refs)).toBeNull();
  });
});
