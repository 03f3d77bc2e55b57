import styled from 'styled-components';
import { callRoutes, type AuditAction, type AuditEntry } from '@campus/contracts';
import { exactTime, relativeTime } from '@campus/kit/format';
import { useSearchParams } from 'react-router-dom';
import { useAdminList } from '../admin/admin-data';
import { AdminFrame } from '../admin/admin-frame';
import { DataTable, Scroll } from '../admin/data-table';
import { ListState } from '../admin/list-state';
import { Pager } from '../admin/pager';

const ACTION_LABELS: Record<AuditAction, string> = {
  'application.approve': 'Approved application',
  'application.reject': 'Rejected application',
  'feedback.update': 'Updated feedback',
  'user.suspend': 'Suspended member',
  'user.reactivate': 'Reactivated member',
  'report.remove': 'Removed reported content',
  'report.dismiss': 'Dismissed report',
  'mail.retry': 'Retried e-mail',
  'appeal.lift': 'Lifted on appeal',
  'appeal.uphold': 'Upheld on appeal',
};

const Table = styled(DataTable)`
  td:last-child {
    overflow-wrap: anywhere;
  }
`;

/** The details of an entry as 'reason: spam, status: resolved'. */
export function detailsText(details: AuditEntry['details']): string {
  return Object.entries(details)
    .filter(([, value]) => value !== null && value !== '')
    .map(([name, value]) => `${name}: ${String(value)}`)
    .join(', ');
}

/** Issue 18: every admin action, newest first: time, admin, action, target, details. */
export default function AuditPage() {
  const [params, setParams] = useSearchParams();
  const parsed = Number(params.get('page'));
  const page = Number.isInteger(parsed) && parsed > 0 ? parsed : 1;
  const list = useAdminList(callRoutes.auditLog, { page });
  const items = list.data?.items ?? [];

  return (
    <AdminFrame title="Audit log">
      <ListState
        what="the audit log"
        isLoading={list.isLoading}
        error={list.error}
        empty={items.length === 0}
        emptyText="No admin action yet."
        onRetry={() => void list.mutate()}
      />
      {items.length > 0 && (
        <Scroll>
          <Table>
            <caption>Admin actions, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Admin</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {items.map((entry) => (
                <tr key={entry.id}>
                  <td>
                    <time dateTime={entry.createdAt} title={exactTime(entry.createdAt)}>
                      {relativeTime(entry.createdAt)}
                    </time>
                  </td>
                  <td>{entry.admin?.name ?? 'A deleted account'}</td>
                  <td>{ACTION_LABELS[entry.action]}</td>
                  <td>
                    {entry.target.type} #{entry.target.id}
                  </td>
                  <td>{detailsText(entry.details)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </Scroll>
      )}
      {list.data && (
        <Pager
          label="Audit log pages"
          page={page}
          pageSize={list.data.pageSize}
          total={list.data.total}
          onPage={(next) => {
            const nextParams = new URLSearchParams(params);
            if (next > 1) nextParams.set('page', String(next));
            else nextParams.delete('page');
            setParams(nextParams);
          }}
        />
      )}
    </AdminFrame>
  );
}
