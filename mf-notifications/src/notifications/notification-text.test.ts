import type { Notification } from '@campus/contracts';
import { notificationText } from './notification-text';

const ben = { id: 2, name: 'Ben', avatarUrl: null };
const base = { id: 1, isRead: false, createdAt: '2026-05-01T10:00:00.000Z', actor: ben };
const like = (content: string): Notification => ({
  ...base,
  type: 'like',
  post: { id: 9, content },
});
/** A type only a newer API sends: the union does not have it, the run time must cope. */
const fromNewerApi = (fields: Record<string, unknown>) =>
  ({ ...base, type: 'something-new', ...fields }) as unknown as Notification;

describe('notificationText', () => {
  it('cuts a linked post preview to 100 characters plus "..."', () => {
    const content = 'x'.repeat(150);
    const { who, action, preview } = notificationText(like(content));
    expect(who).toBe('Ben');
    expect(action).toBe('liked your post');
    expect(preview).toBe(`${'x'.repeat(100)}...`);
  });

  it('quotes what a comment said, not the post it is on', () => {
    expect(
      notificationText({
        ...base,
        type: 'comment',
        post: { id: 9, content: 'The post itself' },
        commentText: 'short',
        commentId: 31,
      }),
    ).toEqual({ who: 'Ben', action: 'commented on your post', preview: 'short', postId: 9 });
    const reply = notificationText({
      ...base,
      type: 'reply',
      post: { id: 9, content: 'The post itself' },
      commentText: 'r'.repeat(100),
      commentId: 32,
    });
    expect(reply.preview).toBe('r'.repeat(100));
    // a deleted comment (or one stored before comments were recorded) quotes nothing
    expect(
      notificationText({
        ...base,
        type: 'comment',
        post: { id: 9, content: 'The post itself' },
        commentText: null,
        commentId: null,
      }).preview,
    ).toBeUndefined();
  });

  it("shows the administrator's reply to feedback, and says what was removed", () => {
    expect(
      notificationText({
        ...base,
        type: 'feedback_reply',
        feedback: { message: 'The feed is slow' },
        reply: 'Fixed, thank you!',
      }),
    ).toEqual({ who: 'Ben', action: 'replied to your feedback', preview: 'Fixed, thank you!' });
    expect(
      notificationText({
        ...base,
        actor: null,
        type: 'content_removed',
        targetType: 'comment',
        content: 'Rude words',
        decisionId: 4,
        reason: { category: 'harassment', text: 'Insults a classmate' },
      }),
    ).toEqual({
      who: 'Campus',
      action: 'removed your comment after reports',
      preview: 'Rude words',
      detail: 'Reason: Harassment or bullying. Insults a classmate',
    });
  });

  it("says an appeal's outcome and the Campus team's words (issue 38)", () => {
    expect(
      notificationText({
        ...base,
        actor: null,
        type: 'appeal_decided',
        outcome: 'lifted',
        decisionKind: 'post_removal',
        content: 'A joke',
        response: 'Fair enough.',
      }),
    ).toEqual({
      who: 'Campus',
      action: 'restored your post after your appeal',
      preview: 'A joke',
      detail: 'From the Campus team: Fair enough.',
    });
    expect(
      notificationText({
        ...base,
        actor: null,
        type: 'appeal_decided',
        outcome: 'upheld',
        decisionKind: 'suspension',
        content: null,
        response: null,
      }),
    ).toEqual({
      who: 'Campus',
      action: 'reviewed your appeal and kept your suspension',
      preview: undefined,
      detail: undefined,
    });
  });

  it('says where a member was mentioned (issue 40): the post, or the words of the comment', () => {
    expect(
      notificationText({
        ...base,
        type: 'mention',
        post: { id: 9, content: `Congrats @Cleo! ${'p'.repeat(120)}` },
        commentText: null,
        commentId: null,
      }),
    ).toEqual({
      who: 'Ben',
      action: 'mentioned you in a post',
      preview: `Congrats @Cleo! ${'p'.repeat(84)}...`,
      postId: 9,
    });
    expect(
      notificationText({
        ...base,
        type: 'mention',
        post: { id: 9, content: 'The post itself' },
        commentText: 'Ask @Cleo, she knows',
        commentId: 31,
      }),
    ).toEqual({
      who: 'Ben',
      action: 'mentioned you in a comment',
      preview: 'Ask @Cleo, she knows',
      postId: 9,
    });
    // the post is gone: nothing to quote or open
    expect(
      notificationText({
        ...base,
        type: 'mention',
        post: null,
        commentText: null,
        commentId: null,
      }),
    ).toEqual({
      who: 'Ben',
      action: 'mentioned you in a post',
      preview: undefined,
      postId: undefined,
    });
  });

  it('keeps a preview of exactly 100 characters whole', () => {
    const content = 'z'.repeat(100);
    expect(notificationText(like(content)).preview).toBe(content);
  });

  it('cuts feedback to 200 characters plus "..."', () => {
    const message = 'y'.repeat(201);
    expect(notificationText({ ...base, type: 'feedback', feedback: { message } }).preview).toBe(
      `${'y'.repeat(200)}...`,
    );
  });

  it('names the applicant of an account application, which has no actor', () => {
    const text = notificationText({
      ...base,
      type: 'account_application',
      actor: null,
      application: { name: 'Old Alum', contactInfo: 'alum@example.com', message: 'Class of 1999' },
    });
    expect(text).toEqual({
      who: 'Old Alum',
      action: 'applied for account access',
      preview: 'alum@example.com · Class of 1999',
    });
  });

  it.each([
    [{ ...base, type: 'repost', post: null }, 'reposted your post'],
    [
      { ...base, type: 'reply', post: null, commentText: null, commentId: null },
      'replied to your comment',
    ],
    [{ ...base, type: 'follow' }, 'started following you'],
  ] satisfies [Notification, string][])('words a %o notification', (notification, action) => {
    expect(notificationText(notification).action).toBe(action);
  });

  it('gives a type from a newer API a default wording, with its actor and post if any', () => {
    expect(notificationText(fromNewerApi({ post: { id: 9, content: 'Hi' } }))).toEqual({
      who: 'Ben',
      action: 'sent you a notification',
      preview: 'Hi',
      postId: 9,
    });
  });

  it('falls back to "Someone" without an actor', () => {
    expect(notificationText(fromNewerApi({ actor: null })).who).toBe('Someone');
    expect(notificationText({ ...base, type: 'follow', actor: null }).who).toBe('Someone');
  });
});
