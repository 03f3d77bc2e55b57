import type { Notification, NotificationGroup } from '@campus/contracts';
import { groupActors, groupTarget, notificationTarget } from './notification-target';

const ada = { id: 4, name: 'Ada Okafor', avatarUrl: null };
const ben = { id: 5, name: 'Ben Larsen', avatarUrl: null };
const base = { id: 1, isRead: false, createdAt: '2026-05-01T10:00:00.000Z', actor: ada };

function group(
  latest: Notification,
  actors = [ada],
  actorsCount = actors.length,
): NotificationGroup {
  return {
    key: `${latest.type}#${latest.id}`,
    type: latest.type,
    latest,
    actors,
    actorsCount,
    ids: [latest.id],
    isRead: latest.isRead,
    createdAt: latest.createdAt,
  };
}

describe('notificationTarget', () => {
  it.each([
    [{ ...base, type: 'like', post: { id: 7, content: 'x' } }, '/post/7'],
    [{ ...base, type: 'repost', post: { id: 7, content: 'x' } }, '/post/7'],
    // A comment, a reply or a mention in a comment opens the post at it (issue 41).
    [
      { ...base, type: 'comment', post: { id: 8, content: 'x' }, commentText: 'hi', commentId: 21 },
      '/post/8#comment-21',
    ],
    [
      { ...base, type: 'reply', post: { id: 9, content: 'x' }, commentText: 'hi', commentId: 22 },
      '/post/9#comment-22',
    ],
    // ...and at the top once the comment is gone.
    [
      {
        ...base,
        type: 'comment',
        post: { id: 8, content: 'x' },
        commentText: null,
        commentId: null,
      },
      '/post/8',
    ],
    [{ ...base, type: 'follow' }, '/profile/4'],
    [
      {
        ...base,
        type: 'mention',
        post: { id: 11, content: 'x' },
        commentText: null,
        commentId: null,
      },
      '/post/11',
    ],
    [
      { ...base, type: 'mention', post: { id: 12, content: 'x' }, commentText: 'hi', commentId: 3 },
      '/post/12#comment-3',
    ],
    [{ ...base, type: 'mention', post: null, commentText: null, commentId: null }, null],
    [{ ...base, type: 'feedback', feedback: { message: 'm' } }, '/admin/feedback'],
    [
      {
        ...base,
        actor: null,
        type: 'account_application',
        application: { name: 'A', contactInfo: 'a@x.org', message: 'm' },
      },
      '/admin/applications',
    ],
    [{ ...base, type: 'like', post: null }, null],
    [{ ...base, type: 'feedback_reply', feedback: null, reply: 'Thanks' }, null],
    [
      {
        ...base,
        actor: null,
        type: 'content_removed',
        targetType: 'post',
        content: 'x',
        decisionId: 3,
        reason: { category: 'spam', text: null },
      },
      null,
    ],
    [
      {
        ...base,
        actor: null,
        type: 'appeal_decided',
        outcome: 'lifted',
        decisionKind: 'post_removal',
        content: 'x',
        response: null,
      },
      null,
    ],
  ] satisfies [Notification, string | null][])('leads %o to %s', (notification, target) => {
    expect(notificationTarget(notification)).toBe(target);
  });

  it("leads several follows of a day to the member's followers", () => {
    const follows = group({ ...base, type: 'follow' }, [ada, ben], 2);
    expect(groupTarget(follows, 3)).toBe('/profile/3/followers');
    expect(groupTarget(group({ ...base, type: 'follow' }), 3)).toBe('/profile/4');
  });
});

describe('groupActors', () => {
  const like: Notification = { ...base, type: 'like', post: { id: 7, content: 'x' } };
  it('names one, two, or the first and how many others', () => {
    expect(groupActors(group(like), 'Someone')).toBe('Ada Okafor');
    expect(groupActors(group(like, [ada, ben]), 'Someone')).toBe('Ada Okafor and Ben Larsen');
    expect(groupActors(group(like, [ada, ben], 4), 'Someone')).toBe('Ada Okafor and 3 others');
    expect(groupActors(group(like, [], 0), 'Old Alum')).toBe('Old Alum');
  });
});
