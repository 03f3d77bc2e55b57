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
    const { action, preview } = notificationText({ ...base, post: { id: 9, content } });
    expect(action).toBe('liked your post');
    expect(preview).toBe(`${'x'.repeat(100)}...`);
  });

  it('keeps a short preview whole', () => {
    expect(
      notificationText({ ...base, type: 'comment', post: { id: 9, content: 'short' } }),
    ).toEqual({
      action: 'commented on your post',
      preview: 'short',
    });
  });

  it('cuts feedback to 200 characters plus "..."', () => {
    const message = 'y'.repeat(201);
    expect(notificationText({ ...base, type: 'feedback', feedback: { message } }).preview).toBe(
      `${'y'.repeat(200)}...`,
    );
  });

  it.each([
    ['repost', 'reposted your post'],
    ['follow', 'started following you'],
    ['something-new', 'sent you a notification'],
  ])('words a %s notification', (type, action) => {
    expect(notificationText({ ...base, type }).action).toBe(action);
  });
});
