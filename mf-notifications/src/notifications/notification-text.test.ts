import type { Notification } from '@campus/contracts';
import { notificationText } from './notification-text';

const base: Notification = {
  id: 1,
  type: 'like',
  isRead: false,
  createdAt: '2026-05-01T10:00:00.000Z',
  actor: { id: 2, name: 'Ben', avatarUrl: null },
};

describe('notificationText', () => {
  it('cuts a linked post preview to 100 characters plus "..."', () => {
    const content = 'x'.repeat(150);
    const { who, action, preview } = notificationText({ ...base, post: { id: 9, content } });
    expect(who).toBe('Ben');
    expect(action).toBe('liked your post');
    expect(preview).toBe(`${'x'.repeat(100)}...`);
  });

  it('keeps a short preview whole', () => {
    expect(
      notificationText({ ...base, type: 'comment', post: { id: 9, content: 'short' } }),
    ).toEqual({ who: 'Ben', action: 'commented on your post', preview: 'short' });
  });

  it('keeps a preview of exactly 100 characters whole', () => {
    const content = 'z'.repeat(100);
    expect(notificationText({ ...base, post: { id: 9, content } }).preview).toBe(content);
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
    ['repost', 'reposted your post'],
    ['reply', 'replied to your comment'],
    ['follow', 'started following you'],
    ['something-new', 'sent you a notification'],
  ])('words a %s notification', (type, action) => {
    expect(notificationText({ ...base, type }).action).toBe(action);
  });

  it('falls back to "Someone" without an actor', () => {
    expect(notificationText({ ...base, type: 'something-new', actor: null }).who).toBe('Someone');
  });
});
