import { useState } from 'react';
import styled from 'styled-components';
import {
  callRoutes,
  APPLICATION_STATUSES,
  REJECTION_REASON_MAX_LENGTH,
  type AdminApplication,
  type ApplicationStatus,
  type ApproveApplicationResponse,
} from '@campus/contracts';
import { ApiError, callApi } from '@campus/kit/api';
import { relativeTime } from '@campus/kit/format';
import { toast } from '@campus/kit/toast';
import { Badge, Button } from '@campus/kit/ui';
import { useAdminList, useRefreshAdmin } from '../admin/admin-data';
import { AdminFrame } from '../admin/admin-frame';
import { useListParams } from '../admin/list-params';
import { ListState } from '../admin/list-state';
import { Pager } from '../admin/pager';
import { ReasonDialog } from '../admin/reason-dialog';
import { Meta, Row, RowActions, Rows, Toolbar } from '../admin/rows';
import { StatusFilter } from '../admin/status-filter';
import { InvitationDialog } from './invitation-dialog';

const STATUS_LABELS: Record<ApplicationStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
};

const EMPTY_TEXT: Record<ApplicationStatus, string> = {
  pending: 'No applications are waiting for a decision.',
  approved: 'No application has been approved yet.',
  rejected: 'No application has been rejected.',
};

const History = styled.details`
  font-size: 0.875rem;

  summary {
    cursor: pointer;
    font-weight: 600;
    /* A touch target of its own (issue 41: 44 px). */
    min-height: 44px;
    display: flex;
    align-items: center;
  }
  ol {
    display: grid;
    gap: ${({ theme }) => theme.space(2)};
    margin: 0;
    padding-left: ${({ theme }) => theme.space(5)};
  }
  p {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

/**
 * The same applicant's other applications (issue 41: one row per applicant), newest first: when,
 * how each was decided, and what it said. Deciding the row decides their pending ones too.
 */
function EarlierApplications({
  name,
  earlier,
}: {
  name: string;
  earlier: NonNullable<AdminApplication['earlier']>;
}) {
  const pending = earlier.filter((e) => e.status === 'pending').length;
  return (
    <History>
      <summary>
        {earlier.length === 1 ? '1 earlier application' : `${earlier.length} earlier applications`}
      </summary>
      <ol aria-label={`Earlier applications of ${name}`}>
        {earlier.map((e) => (
          <li key={e.id}>
            <Meta>
              <time dateTime={e.createdAt}>Applied {relativeTime(e.createdAt)}</time>
              <span aria-hidden="true">·</span>
              <span>{STATUS_LABELS[e.status]}</span>
            </Meta>
            <p>{e.message}</p>
          </li>
        ))}
      </ol>
      {pending > 0 && (
        <Meta>
          Approving or rejecting decides the{' '}
          {pending === 1 ? 'pending one' : `${pending} pending ones`} too.
        </Meta>
      )}
    </History>
  );
}

/**
 * Issue 18: the alumni's account applications, newest first; approve or reject the pending.
 * Issue 41: one row per applicant, with their earlier applications.
 */
export default function ApplicationsPage() {
  const { status, page, setStatus, setPage } = useListParams(APPLICATION_STATUSES, 'pending');
  const list = useAdminList(callRoutes.adminApplications, { status, page });
  const refresh = useRefreshAdmin();
  const [approval, setApproval] = useState<ApproveApplicationResponse | null>(null);
  const [rejecting, setRejecting] = useState<AdminApplication | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const items = list.data?.items ?? [];

  const alreadyDecided = (error: unknown) => {
    if (!(error instanceof ApiError) || error.status !== 409) return false;
    toast({
      title: 'Already decided',
      description: error.serverMessage ?? 'This application was already decided.',
    });
    void refresh();
    return true;
  };

  const approve = async (application: AdminApplication) => {
    setBusyId(application.id);
    try {
      const result = await callApi(callRoutes.approveApplication, {
        params: { id: application.id },
      });
      toast({
        title: 'Application approved',
        description: result.emailed
          ? `The invitation was e-mailed to ${result.application.email ?? application.name}.`
          : 'Copy the invitation link and send it to them.',
      });
      setApproval(result);
      void refresh();
    } catch (error) {
      if (!alreadyDecided(error)) {
        toast({
          title: 'Error',
          description: 'Failed to approve the application. Please try again.',
          variant: 'destructive',
        });
      }
    } finally {
      setBusyId(null);
    }
  };

  const reject = async (reason: string) => {
    if (!rejecting) return;
    try {
      const result = await callApi(callRoutes.rejectApplication, {
        params: { id: rejecting.id },
        body: reason ? { reason } : {},
      });
      toast({
        title: 'Application rejected',
        description: result.emailed ? 'They were told by e-mail.' : undefined,
      });
      void refresh();
    } catch (error) {
      if (alreadyDecided(error)) return;
      throw error;
    }
  };

  return (
    <AdminFrame
      title="Applications"
      toolbar={
        <Toolbar>
          <StatusFilter
            value={status}
            options={APPLICATION_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }))}
            onChange={setStatus}
          />
        </Toolbar>
      }
    >
      <ListState
        what="applications"
        isLoading={list.isLoading}
        error={list.error}
        empty={items.length === 0}
        emptyText={EMPTY_TEXT[status]}
        onRetry={() => void list.mutate()}
      />
      {items.length > 0 && (
        <Rows aria-label={`${STATUS_LABELS[status]} applications`}>
          {items.map((application) => (
            <li key={application.id}>
              <Row aria-labelledby={`application-${application.id}`}>
                <h2 id={`application-${application.id}`}>{application.name}</h2>
                <Meta>
                  <span>{application.contactInfo}</span>
                  <span aria-hidden="true">·</span>
                  <time dateTime={application.createdAt}>
                    Applied {relativeTime(application.createdAt)}
                  </time>
                  {application.earlier && application.earlier.length > 0 && (
                    <Badge>{application.earlier.length + 1} applications</Badge>
                  )}
                  {application.status !== 'pending' && (
                    <Badge $tone={application.status === 'approved' ? 'primary' : 'neutral'}>
                      {STATUS_LABELS[application.status]}
                    </Badge>
                  )}
                </Meta>
                <p>{application.message}</p>
                {application.earlier && application.earlier.length > 0 && (
                  <EarlierApplications name={application.name} earlier={application.earlier} />
                )}
                {application.rejectionReason && (
                  <Meta>Reason given: {application.rejectionReason}</Meta>
                )}
                {application.status === 'pending' && (
                  <RowActions>
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={busyId === application.id}
                      onClick={() => setRejecting(application)}
                      aria-label={`Reject ${application.name}`}
                    >
                      Reject
                    </Button>
                    <Button
                      size="sm"
                      disabled={busyId === application.id}
                      onClick={() => void approve(application)}
                      aria-label={`Approve ${application.name}`}
                    >
                      Approve
                    </Button>
                  </RowActions>
                )}
              </Row>
            </li>
          ))}
        </Rows>
      )}
      {list.data && (
        <Pager
          label="Applications pages"
          page={page}
          pageSize={list.data.pageSize}
          total={list.data.total}
          onPage={setPage}
        />
      )}
      <InvitationDialog approval={approval} onClose={() => setApproval(null)} />
      <ReasonDialog
        open={rejecting !== null}
        onOpenChange={(open) => !open && setRejecting(null)}
        title={rejecting ? `Reject ${rejecting.name}'s application` : 'Reject application'}
        description="The reason is optional. It is e-mailed to them when their contact information has an address."
        label="Reason (optional)"
        confirmText="Reject"
        required={false}
        maxLength={REJECTION_REASON_MAX_LENGTH}
        onConfirm={reject}
      />
    </AdminFrame>
  );
}
