import { useId, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { touchTextTarget } from '@campus/kit/theme';
import { Link } from 'react-router-dom';
import {
  callRoutes,
  ADMIN_USER_SEARCH_MAX_LENGTH,
  MEMBER_STATUSES,
  REPORT_CATEGORIES,
  REPORT_CATEGORY_LABELS,
  SUSPENSION_REASON_MAX_LENGTH,
  type AdminUser,
  type MemberStatus,
  type ReportCategory,
} from '@campus/contracts';
import { ApiError, callApi } from '@campus/kit/api';
import { relativeTime } from '@campus/kit/format';
import { toast } from '@campus/kit/toast';
import { Avatar, Badge, Button, CategoryReasonDialog } from '@campus/kit/ui';
import { useAdminList, useRefreshAdmin } from '../admin/admin-data';
import { AdminFrame } from '../admin/admin-frame';
import { controlStyle } from '../admin/control-style';
import { useListParams } from '../admin/list-params';
import { ListState } from '../admin/list-state';
import { Pager } from '../admin/pager';
import { Meta, Row, RowActions, Rows, Toolbar } from '../admin/rows';
import { StatusFilter } from '../admin/status-filter';

const CATEGORY_CHOICES = REPORT_CATEGORIES.map((value) => ({
  value,
  label: REPORT_CATEGORY_LABELS[value],
}));

type Filter = MemberStatus | 'all';
const FILTERS: readonly Filter[] = ['all', ...MEMBER_STATUSES];

const FILTER_LABELS: Record<Filter, string> = {
  all: 'All',
  active: 'Active',
  suspended: 'Suspended',
  unverified: 'Unverified',
};

const Search = styled.form`
  display: flex;
  flex: 1;
  gap: ${({ theme }) => theme.space(2)};
  align-items: center;
  min-width: 220px;
  font-size: 0.875rem;

  label {
    font-weight: 600;
  }
  input {
    flex: 1;
    min-width: 0;
    ${controlStyle}
    padding: 0 ${({ theme }) => theme.space(3)};
  }
`;

const Person = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space(3)};
  align-items: center;
  min-width: 0;

  div {
    display: grid;
    min-width: 0;
  }
  a {
    font-weight: 700;
    color: inherit;
    ${touchTextTarget}
  }
  span {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-size: 0.8125rem;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

/** Issue 18: every member, searchable by name or e-mail; suspend (with a reason) or reactivate. */
export default function MembersPage() {
  const { status, page, params, setStatus, setPage, update } = useListParams(FILTERS, 'all');
  const q = params.get('q') ?? '';
  const [typed, setTyped] = useState(q);
  // Back or a link changing ?q= puts that search in the box.
  const [shownQ, setShownQ] = useState(q);
  if (shownQ !== q) {
    setShownQ(q);
    setTyped(q);
  }
  const searchId = useId();
  const list = useAdminList(callRoutes.adminMembers, {
    q: q || undefined,
    status: status === 'all' ? undefined : status,
    page,
  });
  const refresh = useRefreshAdmin();
  const [suspending, setSuspending] = useState<AdminUser | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const items = list.data?.items ?? [];

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    update({ q: typed.trim() || null, page: null });
  };

  const suspend = async ({ category, text }: { category: string; text: string }) => {
    if (!suspending) return;
    await callApi(callRoutes.suspendMember, {
      params: { id: suspending.id },
      body: { category: category as ReportCategory, reason: text },
    });
    toast({
      title: 'Member suspended',
      description: `${suspending.name} is signed out and their posts are hidden until you reactivate them.`,
    });
    void refresh();
  };

  const reactivate = async (member: AdminUser) => {
    setBusyId(member.id);
    try {
      await callApi(callRoutes.reactivateMember, { params: { id: member.id } });
      toast({ title: 'Member reactivated', description: `${member.name} can sign in again.` });
      void refresh();
    } catch (error) {
      toast({
        title: 'Error',
        description:
          (error instanceof ApiError && error.serverMessage) ||
          'Failed to reactivate the member. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setBusyId(null);
    }
  };

  return (
    <AdminFrame
      title="Members"
      toolbar={
        <Toolbar>
          <Search role="search" onSubmit={onSearch}>
            <label htmlFor={searchId}>Search members</label>
            <input
              id={searchId}
              type="search"
              placeholder="Name or e-mail"
              maxLength={ADMIN_USER_SEARCH_MAX_LENGTH}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
            />
            <Button type="submit" size="sm" variant="secondary">
              Search
            </Button>
          </Search>
          <StatusFilter
            value={status}
            options={FILTERS.map((value) => ({ value, label: FILTER_LABELS[value] }))}
            onChange={setStatus}
          />
        </Toolbar>
      }
    >
      <ListState
        what="members"
        isLoading={list.isLoading}
        error={list.error}
        empty={items.length === 0}
        emptyText={q ? `No member matches "${q}".` : 'No members with this status.'}
        onRetry={() => void list.mutate()}
      />
      {items.length > 0 && (
        <Rows aria-label="Members">
          {items.map((member) => (
            <li key={member.id}>
              <Row aria-label={member.name}>
                <Person>
                  <Avatar name={member.name} src={member.avatarUrl} size={40} />
                  <div>
                    <Link to={`/profile/${member.id}`}>{member.name}</Link>
                    <span>{member.email}</span>
                  </div>
                </Person>
                <Meta>
                  <Badge $tone={member.status === 'suspended' ? 'danger' : 'neutral'}>
                    {FILTER_LABELS[member.status]}
                  </Badge>
                  {member.isAdmin && <Badge $tone="primary">Admin</Badge>}
                  {member.affiliation === 'alumni' && <Badge>Alumni</Badge>}
                  <time dateTime={member.createdAt}>Joined {relativeTime(member.createdAt)}</time>
                  {member.lastActiveAt && (
                    <time dateTime={member.lastActiveAt}>
                      · active {relativeTime(member.lastActiveAt)}
                    </time>
                  )}
                </Meta>
                {member.status === 'suspended' && member.suspensionReason && (
                  <Meta>
                    Suspended for{' '}
                    {REPORT_CATEGORY_LABELS[member.suspensionCategory ?? 'other'].toLowerCase()}:{' '}
                    {member.suspensionReason}
                  </Meta>
                )}
                {!member.isAdmin && (
                  <RowActions>
                    {member.status === 'suspended' ? (
                      <Button
                        size="sm"
                        variant="secondary"
                        disabled={busyId === member.id}
                        onClick={() => void reactivate(member)}
                        aria-label={`Reactivate ${member.name}`}
                      >
                        Reactivate
                      </Button>
                    ) : (
                      <Button
                        size="sm"
                        variant="destructive"
                        onClick={() => setSuspending(member)}
                        aria-label={`Suspend ${member.name}`}
                      >
                        Suspend
                      </Button>
                    )}
                  </RowActions>
                )}
              </Row>
            </li>
          ))}
        </Rows>
      )}
      {list.data && (
        <Pager
          label="Members pages"
          page={page}
          pageSize={list.data.pageSize}
          total={list.data.total}
          onPage={setPage}
        />
      )}
      <CategoryReasonDialog
        open={suspending !== null}
        onOpenChange={(open) => !open && setSuspending(null)}
        title={suspending ? `Suspend ${suspending.name}` : 'Suspend member'}
        description="They are signed out at once and cannot sign in; their posts and comments are hidden from everyone until you reactivate them. They see the reason when they sign in, and may appeal."
        legend="Category"
        categories={CATEGORY_CHOICES}
        label="Reason"
        textRequired
        confirmText="Suspend"
        confirmVariant="destructive"
        maxLength={SUSPENSION_REASON_MAX_LENGTH}
        onConfirm={suspend}
        failureMessage={(failure) =>
          (failure instanceof ApiError && failure.serverMessage) ||
          'Something went wrong. Please try again.'
        }
      />
    </AdminFrame>
  );
}
