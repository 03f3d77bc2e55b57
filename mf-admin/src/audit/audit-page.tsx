import { useId } from 'react';
import styled from 'styled-components';
import { AUDIT_ACTIONS, callRoutes, type AuditAction, type AuditEntry } from '@campus/contracts';
import { exactTime, relativeTime } from '@campus/kit/format';
import { Button } from '@campus/kit/ui';
import { useAdminList } from '../admin/admin-data';
import { AdminFrame } from '../admin/admin-frame';
import { FilterField } from '../admin/control-style';
import { DataTable, Scroll } from '../admin/data-table';
import { useListParams } from '../admin/list-params';
import { ListState } from '../admin/list-state';
import { Pager } from '../admin/pager';
import { Toolbar } from '../admin/rows';
import { StatusFilter } from '../admin/status-filter';
import { AuditSentence, auditReason } from './audit-sentence';

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

const ACTION_FILTER = [
  { value: '', label: 'All actions' },
  ...AUDIT_ACTIONS.map((value) => ({ value, label: ACTION_LABELS[value] })),
];

const DAY = /^\d{4}-\d{2}-\d{2}$/;

const Table = styled(DataTable)`
  td:nth-child(3),
  td:last-child {
    overflow-wrap: anywhere;
  }
`;

function DayInput({
  label,
  value,
  min,
  max,
  onChange,
}: {
  label: string;
  value: string;
  min?: string;
  max?: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <FilterField>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="date"
        value={value}
        min={min || undefined}
        max={max || undefined}
        onChange={(event) => onChange(event.target.value)}
      />
    </FilterField>
  );
}

/** What an entry carried besides its sentence: the reason given, the removed words, the reply. */
export function auditNote(details: AuditEntry['details']): string {
  const quoted = (name: string) =>
    typeof details[name] === 'string' && details[name] !== '' ? `“${details[name]}”` : null;
  const reason = auditReason(details);
  return [
    reason && `Reason: ${reason}`,
    quoted('content') && `Content: ${quoted('content')}`,
    quoted('reply') && `Reply: ${quoted('reply')}`,
    quoted('response') && `Response: ${quoted('response')}`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * Issue 18: every admin action, newest first. Issue 41: each as a sentence with links to what
 * it is about, filtered by action, administrator and days (kept in the URL, like every list's).
 */
export default function AuditPage() {
  const { page, params, setPage, update } = useListParams(['all'] as const, 'all');
  const action = AUDIT_ACTIONS.find((value) => value === params.get('action')) ?? '';
  const adminId = /^[1-9]\d*$/.test(params.get('admin') ?? '') ? params.get('admin')! : '';
  const since = DAY.test(params.get('since') ?? '') ? params.get('since')! : '';
  const until = DAY.test(params.get('until') ?? '') ? params.get('until')! : '';
  const list = useAdminList(callRoutes.auditLog, {
    page,
    action: action || undefined,
    adminId: adminId ? Number(adminId) : undefined,
    since: since || undefined,
    until: until || undefined,
  });
  const items = list.data?.items ?? [];
  const filtered = Boolean(action || adminId || since || until);
  const admins = list.data?.admins ?? [];

  return (
    <AdminFrame
      title="Audit log"
      toolbar={
        <Toolbar role="group" aria-label="Filters">
          <StatusFilter
            label="Action"
            value={action}
            options={ACTION_FILTER}
            onChange={(value) => update({ action: value || null, page: null })}
          />
          <StatusFilter
            label="Admin"
            value={adminId}
            options={[
              { value: '', label: 'All admins' },
              ...admins.map((admin) => ({ value: String(admin.id), label: admin.name })),
            ]}
            onChange={(value) => update({ admin: value || null, page: null })}
          />
          <DayInput
            label="From"
            value={since}
            max={until}
            onChange={(value) => update({ since: value || null, page: null })}
          />
          <DayInput
            label="To"
            value={until}
            min={since}
            onChange={(value) => update({ until: value || null, page: null })}
          />
          {filtered && (
            <Button
              variant="secondary"
              size="sm"
              onClick={() =>
                update({ action: null, admin: null, since: null, until: null, page: null })
              }
            >
              Clear filters
            </Button>
          )}
        </Toolbar>
      }
    >
      <ListState
        what="the audit log"
        isLoading={list.isLoading}
        error={list.error}
        empty={items.length === 0}
        emptyText={filtered ? 'No admin action matches these filters.' : 'No admin action yet.'}
        onRetry={() => void list.mutate()}
      />
      {items.length > 0 && (
        <Scroll>
          <Table>
            <caption>Admin actions, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Action</th>
                <th scope="col">What happened</th>
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
                  <td>{ACTION_LABELS[entry.action]}</td>
                  <td>
                    <AuditSentence entry={entry} />
                  </td>
                  <td>{auditNote(entry.details)}</td>
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
          onPage={setPage}
        />
      )}
    </AdminFrame>
  );
}
