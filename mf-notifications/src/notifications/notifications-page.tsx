import styled from 'styled-components';
import { useSession } from '@campus/kit/session';
import { useLiveNotifications, useUnreadCount } from '@campus/kit/stream';
import { toast } from '@campus/kit/toast';
import { Badge, Button, EmptyState, Skeleton } from '@campus/kit/ui';
import { NotificationRow } from './notification-row';
import { useNotificationGroups } from './use-notification-groups';

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

const More = styled.div`
  display: flex;
  justify-content: center;
  padding: ${({ theme }) => theme.space(4)};
`;

/**
 * Spec §2 "Notifications", grouped (issue 19): likes and reposts of one post and follows of one
 * day are one row. New notifications arrive live from the session's stream; the unread count is
 * the one the shell's badge shows, so both change together without a reload.
 */
export default function NotificationsPage() {
  const { user } = useSession();
  const {
    groups,
    error,
    isLoading,
    isLoadingMore,
    hasMore,
    loadMore,
    refresh,
    markGroupRead,
    markAllRead,
  } = useNotificationGroups();
  const unread = useUnreadCount();
  const anyUnread = unread > 0 || groups.some((group) => !group.isRead);

  useLiveNotifications(refresh);

  const readAll = async () => {
    try {
      await markAllRead();
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
        {anyUnread && (
          <Button variant="secondary" size="sm" onClick={readAll}>
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
      ) : error && groups.length === 0 ? (
        <EmptyState
          title="Failed to fetch notifications"
          description="Check your connection and try again."
          action={
            <Button variant="secondary" onClick={refresh}>
              Retry
            </Button>
          }
        />
      ) : groups.length === 0 ? (
        <EmptyState
          title="No notifications yet"
          description="You'll see notifications here when others interact with your posts."
        />
      ) : (
        <>
          <List aria-label="Notifications">
            {groups.map((group) => (
              <NotificationRow
                key={group.key}
                group={group}
                viewerId={user?.id}
                onOpen={(opened) => void markGroupRead(opened)}
              />
            ))}
          </List>
          {hasMore && (
            <More>
              <Button variant="secondary" onClick={loadMore} disabled={isLoadingMore}>
                {isLoadingMore ? 'Loading...' : 'Load more'}
              </Button>
            </More>
          )}
        </>
      )}
    </section>
  );
}
