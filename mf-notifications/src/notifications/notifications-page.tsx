import { Link } from 'react-router-dom';
import styled from 'styled-components';
import type { Notification } from '@campus/contracts';
import { apiRequest } from '@campus/kit/api';
import { unreadCount, useNotifications } from '@campus/kit/data';
import { relativeTime } from '@campus/kit/format';
import { toast } from '@campus/kit/toast';
import { Avatar, Badge, Button, EmptyState, Skeleton } from '@campus/kit/ui';
import { notificationText } from './notification-text';

const Header = styled.header`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space(2)};
  padding: ${({ theme }) => theme.space(4)};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};

  h1 {
    display: flex;
    gap: ${({ theme }) => theme.space(2)};
    align-items: center;
    margin: 0;
    font-size: 1.25rem;
  }
`;

const List = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
`;

const Item = styled.li<{ $unread: boolean }>`
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  background: ${({ theme, $unread }) => ($unread ? '#eff6ff' : theme.colors.surface)};

  > button {
    display: flex;
    gap: ${({ theme }) => theme.space(3)};
    width: 100%;
    padding: ${({ theme }) => theme.space(4)};
    border: 0;
    background: none;
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
  }
`;

function NotificationRow({
  notification,
  onRead,
}: {
  notification: Notification;
  onRead: (id: number) => void;
}) {
  const { action, preview } = notificationText(notification);
  const actor = notification.actor?.name ?? notification.application?.name ?? 'Someone';
  return (
    <Item $unread={!notification.isRead} data-unread={!notification.isRead}>
      <button
        type="button"
        aria-label={`${actor} ${action}${notification.isRead ? '' : ' (unread)'}`}
        onClick={() => !notification.isRead && onRead(notification.id)}
      >
        <Avatar name={actor} src={notification.actor?.avatarUrl} />
        <div>
          <p>
            <strong>{actor}</strong> {action}
          </p>
          {preview && <blockquote>{preview}</blockquote>}
          <small>{relativeTime(notification.createdAt)}</small>
        </div>
      </button>
      {notification.post && (
        <p style={{ padding: '0 16px 12px 68px', fontSize: '0.8125rem' }}>
          <Link to={`/post/${notification.post.id}`}>View post</Link>
        </p>
      )}
    </Item>
  );
}

/** Spec §2 "Notifications". Reads the shared cache, so the shell's badge changes with it. */
export default function NotificationsPage() {
  const { data, error, isLoading, mutate } = useNotifications();
  const notifications = (data ?? []) as Notification[];
  const unread = unreadCount(notifications);

  const markRead = async (id: number) => {
    await mutate(
      (current) =>
        current?.map((item) => (item.id === id ? { ...item, isRead: true } : item)) ?? current,
      { revalidate: false },
    );
    try {
      await apiRequest(`/api/notifications/${id}/read`, { method: 'PUT' });
    } catch {
      void mutate();
    }
  };

  const markAllRead = async () => {
    try {
      await apiRequest('/api/notifications/read-all', { method: 'PUT' });
      await mutate((current) => current?.map((item) => ({ ...item, isRead: true })) ?? current, {
        revalidate: false,
      });
    } catch {
      toast({
        title: 'Error',
        description: 'Failed to mark notifications as read.',
        variant: 'destructive',
      });
    }
  };

  return (
    <section aria-labelledby="notifications-title">
      <Header>
        <h1 id="notifications-title">
          Notifications {unread > 0 && <Badge $tone="danger">{unread}</Badge>}
        </h1>
        {unread > 0 && (
          <Button variant="secondary" size="sm" onClick={markAllRead}>
            Mark all read
          </Button>
        )}
      </Header>
      {isLoading ? (
        <List aria-busy="true" aria-label="Loading notifications">
          {[0, 1, 2, 3, 4].map((row) => (
            <li key={row} style={{ display: 'flex', gap: 12, padding: 16 }}>
              <Skeleton $width="40px" $height="40px" $round />
              <Skeleton $height="40px" />
            </li>
          ))}
        </List>
      ) : error ? (
        <EmptyState title="Failed to fetch notifications" description="Please try again later." />
      ) : notifications.length === 0 ? (
        <EmptyState
          title="No notifications yet"
          description="You'll see notifications here when others interact with your posts."
        />
      ) : (
        <List>
          {notifications.map((notification) => (
            <NotificationRow key={notification.id} notification={notification} onRead={markRead} />
          ))}
        </List>
      )}
    </section>
  );
}
