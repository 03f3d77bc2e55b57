import styled from 'styled-components';
import useSWR from 'swr';
import type { Notification } from '@campus/contracts';
import { apiRequest, type ApiRequestOptions } from '@campus/kit/api';
import { getNotifications, keys, unreadCount } from '@campus/kit/data';
import { toast } from '@campus/kit/toast';
import { Badge, Button, EmptyState, Skeleton } from '@campus/kit/ui';
import { NotificationRow } from './notification-row';

/** Spec §9: the loading skeleton has 5 rows. */
export const SKELETON_ROWS = 5;

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

const SkeletonRow = styled.li`
  display: flex;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => theme.space(4)};
`;

type Notifications = Notification[] | null | undefined;
const PUT: ApiRequestOptions = { method: 'PUT' };

/**
 * Spec §2 "Notifications". It reads and writes the kit's shared notifications cache entry, so the
 * shell's unread badge and dot change together with this page, without a reload.
 */
export default function NotificationsPage() {
  const { data, error, isLoading, mutate } = useSWR<Notifications, Error>(
    keys.notifications(),
    getNotifications,
    { revalidateOnMount: true },
  );
  const notifications = data ?? [];
  const unread = unreadCount(notifications);

  const markRead = async (id: number) => {
    const readOne = (current: Notifications) =>
      current?.map((item) => (item.id === id ? { ...item, isRead: true } : item));
    await mutate(readOne, { revalidate: false });
    try {
      await apiRequest(`/api/notifications/${id}/read`, PUT);
    } catch {
      void mutate(); // the server did not take it: show what it holds
    }
  };

  const markAllRead = async () => {
    try {
      await apiRequest('/api/notifications/read-all', PUT);
      await mutate((current) => current?.map((item) => ({ ...item, isRead: true })), {
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
          Notifications
          {unread > 0 && (
            <Badge $tone="danger" aria-label={`${unread} unread`} data-testid="page-unread-badge">
              {unread}
            </Badge>
          )}
        </h1>
        {unread > 0 && (
          <Button variant="secondary" size="sm" onClick={markAllRead}>
            Mark all read
          </Button>
        )}
      </Header>
      {isLoading ? (
        <List aria-busy="true" aria-label="Loading notifications">
          {Array.from({ length: SKELETON_ROWS }, (_, row) => (
            <SkeletonRow key={row} data-testid="notification-skeleton">
              <Skeleton $width="40px" $height="40px" $round />
              <Skeleton $height="40px" />
            </SkeletonRow>
          ))}
        </List>
      ) : error && notifications.length === 0 ? (
        <EmptyState title="Failed to fetch notifications" description="Please try again later." />
      ) : notifications.length === 0 ? (
        <EmptyState
          title="No notifications yet"
          description="You'll see notifications here when others interact with your posts."
        />
      ) : (
        <List aria-label="Notifications">
          {notifications.map((notification) => (
            <NotificationRow key={notification.id} notification={notification} onRead={markRead} />
          ))}
        </List>
      )}
    </section>
  );
}
