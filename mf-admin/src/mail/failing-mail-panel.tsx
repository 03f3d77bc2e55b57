import { useState } from 'react';
import styled from 'styled-components';
import { callRoutes, type AdminMail } from '@campus/contracts';
import { ApiError, callApi } from '@campus/kit/api';
import { exactTime, relativeTime } from '@campus/kit/format';
import { toast } from '@campus/kit/toast';
import { Badge, Button } from '@campus/kit/ui';
import { useAdminList, useRefreshAdmin } from '../admin/admin-data';
import { DataTable, Scroll } from '../admin/data-table';

const Panel = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space(2)};
  padding: ${({ theme }) => theme.space(4)};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.colors.surface};

  h2 {
    display: flex;
    gap: ${({ theme }) => theme.space(2)};
    align-items: center;
    margin: 0;
    font-size: 1rem;
  }
  p {
    margin: 0;
    font-size: 0.875rem;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

/** Read by screen readers only. */
const Hidden = styled.span`
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
`;

const Table = styled(DataTable)`
  td {
    overflow-wrap: anywhere;
  }
`;

/** When a mail is tried again, or that it was given up. */
function statusText(mail: AdminMail): string {
  if (mail.status === 'failed') return 'Failed';
  if (mail.status === 'sending') return 'Being sent';
  return mail.nextAttemptAt ? `Retrying (next try ${exactTime(mail.nextAttemptAt)})` : 'Retrying';
}

/**
 * Issue 35: account e-mails that failed for good or keep failing (SMTP down, an address refused),
 * with a Retry for each. Shown on the admin pages only when there are some; never the body or
 * the links of a mail (the API does not answer them: they carry sign-in tokens).
 */
export function FailingMailPanel() {
  const list = useAdminList(callRoutes.adminMail, { page: 1 });
  const refresh = useRefreshAdmin();
  const [busyId, setBusyId] = useState<number | null>(null);
  const items = list.data?.items ?? [];
  if (items.length === 0) return null;
  const total = list.data?.total ?? items.length;

  const retry = async (mail: AdminMail) => {
    setBusyId(mail.id);
    try {
      await callApi(callRoutes.retryMail, { params: { id: mail.id } });
      toast({ title: 'E-mail queued again', description: `It will be sent to ${mail.to} now.` });
      void refresh();
    } catch (error) {
      toast({
        title: 'Error',
        description:
          (error instanceof ApiError && error.serverMessage) ||
          'Failed to retry the e-mail. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setBusyId(null);
    }
  };

  return (
    <Panel aria-labelledby="failing-mail-title">
      <h2 id="failing-mail-title">
        E-mails not delivered <Badge $tone="danger">{total}</Badge>
      </h2>
      <p>
        These account e-mails failed to send. Failing ones are tried again by themselves; retry a
        failed one once the mail server works again.
      </p>
      <Scroll>
        <Table aria-labelledby="failing-mail-title">
          <thead>
            <tr>
              <th scope="col">To</th>
              <th scope="col">Subject</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last error</th>
              <th scope="col">Queued</th>
              <th scope="col">
                <Hidden>Actions</Hidden>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((mail) => (
              <tr key={mail.id}>
                <td>{mail.to}</td>
                <td>{mail.subject ?? 'Not written yet'}</td>
                <td>{statusText(mail)}</td>
                <td>{mail.attempts}</td>
                <td>{mail.lastError}</td>
                <td>
                  <time dateTime={mail.createdAt} title={exactTime(mail.createdAt)}>
                    {relativeTime(mail.createdAt)}
                  </time>
                </td>
                <td>
                  {mail.status !== 'sending' && (
                    <Button
                      variant="secondary"
                      size="sm"
                      aria-label={`Retry the e-mail to ${mail.to}`}
                      disabled={busyId === mail.id}
                      onClick={() => void retry(mail)}
                    >
                      Retry
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      </Scroll>
    </Panel>
  );
}
