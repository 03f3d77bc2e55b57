import { Link } from 'react-router-dom';
import styled from 'styled-components';
import type { Notification } from '@campus/contracts';
import { relativeTime } from '@campus/kit/format';
import { Avatar } from '@campus/kit/ui';
import { notificationText } from './notification-text';

const Item = styled.li<{ $unread: boolean }>`
  position: relative;
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  background: ${({ theme, $unread }) => ($unread ? '#eff6ff' : theme.colors.surface)};

  > button {
    display: flex;
    gap: ${({ theme }) => theme.space(3)};
    width: 100%;
    padding: ${({ theme }) => theme.space(4)};
    border: 0;
    background: none;
    color: inherit;
    font: inherit;
    text-align: left;
    cursor: ${({ $unread }) => ($unread ? 'pointer' : 'default')};
  }
  p {
    margin: 0;
  }
  small,
  blockquote {
    color: ${({ theme }) => theme.colors.textMuted};
  }
  blockquote {
    margin: ${({ theme }) => theme.space(1)} 0;
    font-size: 0.875rem;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
`;

const UnreadDot = styled.span`
  flex: none;
  align-self: center;
  width: 8px;
  height: 8px;
  margin-left: auto;
  border-radius: 50%;
  background: ${({ theme }) => theme.colors.primary};
`;

const PostLink = styled.p`
  padding: 0 ${({ theme }) => theme.space(4)} ${({ theme }) => theme.space(3)} 68px;
  font-size: 0.8125rem;
`;

/** One notification; a click (or Enter / Space) on an unread one marks it read. */
export function NotificationRow({
  notification,
  onRead,
}: {
  notification: Notification;
  onRead: (id: number) => void;
}) {
  const { who, action, preview, postId } = notificationText(notification);
  const unread = !notification.isRead;
  return (
    <Item $unread={unread} data-unread={unread} data-type={notification.type}>
      <button
        type="button"
        aria-label={`${who} ${action}${unread ? ' (unread)' : ''}`}
        aria-describedby={preview ? `notification-${notification.id}-preview` : undefined}
        onClick={() => unread && onRead(notification.id)}
      >
        <Avatar name={who} src={notification.actor?.avatarUrl} />
        <div>
          <p>
            <strong>{who}</strong> {action}
          </p>
          {preview && (
            <blockquote id={`notification-${notification.id}-preview`}>{preview}</blockquote>
          )}
          <small>{relativeTime(notification.createdAt)}</small>
        </div>
        {unread && <UnreadDot aria-hidden="true" data-testid="unread-marker" />}
      </button>
      {postId !== undefined && (
        <PostLink>
          <Link to={`/post/${postId}`}>View post</Link>
        </PostLink>
      )}
    </Item>
  );
}
