import useSWRInfinite from 'swr/infinite';
import { callRoutes, type NotificationGroup } from '@campus/contracts';
import { callApi, callTarget, readCall } from '@campus/kit/api';
import { keys, type KeyData } from '@campus/kit/data';
import { withPrefetch } from '@campus/kit/prefetch';
import { useSWRConfig } from 'swr';

type GroupsKey = ReturnType<typeof keys.notificationGroups>;
/** One page of groups; null once a 401/403 signed the member out. */
type GroupsPage = KeyData<GroupsKey>;

/**
 * One page of `GET /api/notifications?grouped=true`, after the cursor in its key. The first page
 * is taken from the shell's early request when the page was opened on the notifications
 * (@campus/kit/prefetch), else requested here.
 */
export function getNotificationGroups([, , before]: GroupsKey): Promise<GroupsPage> {
  const target = { query: { before: before > 0 ? before : undefined } };
  const load = () => readCall(callRoutes.notificationGroups, target);
  return before > 0
    ? load()
    : withPrefetch(callTarget(callRoutes.notificationGroups, target), load);
}

const groupsKey = (index: number, previous: GroupsPage): GroupsKey | null => {
  if (index === 0) return keys.notificationGroups(0);
  return previous?.nextCursor ? keys.notificationGroups(previous.nextCursor) : null;
};

type Pages = GroupsPage[] | undefined;
type List = KeyData<ReturnType<typeof keys.notifications>> | undefined;

/**
 * The member's notifications in groups (likes and reposts of one post, follows of one day), page
 * by page, always fetched fresh when the page is shown. Marking read updates these pages and the
 * kit's plain list (which the shell's badge reads while the stream is down) at once.
 */
export function useNotificationGroups() {
  const { mutate: mutateKey } = useSWRConfig();
  const groups = useSWRInfinite(groupsKey, getNotificationGroups, {
    revalidateOnMount: true,
    revalidateFirstPage: true,
  });
  const { data, mutate, size, setSize, isValidating } = groups;
  const pages = (data ?? []).filter((page) => page !== null);
  const list = pages.flatMap((page) => page.groups);
  const hasMore = pages.length > 0 && (pages.at(-1)?.nextCursor ?? null) !== null;

  /** Shows `ids` read here and in the shared list; `undo` puts back what the server holds. */
  const showRead = async (
    isRead: (group: NotificationGroup) => boolean,
    ids: ReadonlySet<number> | 'all',
  ) => {
    await mutate(
      (current) =>
        (current as Pages)?.map(
          (page) =>
            page && {
              ...page,
              groups: page.groups.map((group) =>
                isRead(group) ? { ...group, isRead: true } : group,
              ),
            },
        ),
      { revalidate: false },
    );
    await mutateKey<List>(
      keys.notifications(),
      (current) =>
        current?.map((item) =>
          ids === 'all' || ids.has(item.id) ? { ...item, isRead: true } : item,
        ),
      { revalidate: false },
    );
  };

  const undo = () => {
    void mutate();
    void mutateKey(keys.notifications());
  };

  /** Marks every member of `group` read (one request for the whole group). */
  const markGroupRead = async (group: NotificationGroup) => {
    if (group.isRead) return;
    await showRead((candidate) => candidate.key === group.key, new Set(group.ids));
    try {
      await callApi(callRoutes.markNotificationsRead, { body: { keys: [group.key] } });
    } catch {
      undo();
    }
  };

  /** Marks everything read; throws when the API refused, after putting back its state. */
  const markAllRead = async () => {
    await callApi(callRoutes.markAllNotificationsRead);
    await showRead(() => true, 'all');
  };

  return {
    groups: list,
    error: groups.error,
    isLoading: groups.isLoading,
    isLoadingMore: isValidating && size > pages.length,
    hasMore,
    loadMore: () => void setSize(size + 1),
    refresh: () => void mutate(),
    markGroupRead,
    markAllRead,
  };
}
