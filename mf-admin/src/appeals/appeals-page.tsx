import { useState } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import {
  APPEAL_STATUSES,
  callRoutes,
  MODERATION_REASON_TEXT_MAX_LENGTH,
  REPORT_CATEGORY_LABELS,
  type AdminAppeal,
  type AppealOutcome,
  type AppealStatus,
  type DecisionKind,
} from '@campus/contracts';
import { ApiError, callApi } from '@campus/kit/api';
import { relativeTime } from '@campus/kit/format';
import { toast } from '@campus/kit/toast';
import { Badge, Button, ReasonDialog } from '@campus/kit/ui';
import { useAdminList, useRefreshAdmin } from '../admin/admin-data';
import { AdminFrame } from '../admin/admin-frame';
import { useListParams } from '../admin/list-params';
import { ListState } from '../admin/list-state';
import { Pager } from '../admin/pager';
import { Meta, Row, RowActions, Rows, Toolbar } from '../admin/rows';
import { StatusFilter } from '../admin/status-filter';

const STATUS_LABELS: Record<AppealStatus, string> = {
  pending: 'Pending',
  lifted: 'Lifted',
  upheld: 'Upheld',
};

const DECISION_LABELS: Record<DecisionKind, string> = {
  suspension: 'Suspension',
  post_removal: 'Removed post',
  comment_removal: 'Removed comment',
};

/** What lifting does to each kind of decision (the dialog says it before it is done). */
const LIFT_EFFECTS: Record<DecisionKind, string> = {
  suspension: 'The member is reactivated and can sign in again.',
  post_removal: 'The post is restored for everyone.',
  comment_removal: 'The comment and the replies removed with it are restored.',
};

const Quote = styled.blockquote`
  margin: 0;
  padding-left: ${({ theme }) => theme.space(3)};
  border-left: 3px solid ${({ theme }) => theme.colors.border};
  white-space: pre-wrap;
  overflow-wrap: anywhere;
`;

function memberName(appeal: AdminAppeal): string {
  return appeal.member?.name ?? 'A deleted account';
}

/**
 * Issue 38: members' appeals of removals and suspensions, one entry per appeal with the decision
 * and its reason; the admin lifts it (the decision is undone) or upholds it, optionally with
 * words for the member, who is told either way.
 */
export default function AppealsPage() {
  const { status, page, setStatus, setPage } = useListParams(APPEAL_STATUSES, 'pending');
  const list = useAdminList(callRoutes.adminAppeals, { status, page });
  const refresh = useRefreshAdmin();
  const [deciding, setDeciding] = useState<{ appeal: AdminAppeal; outcome: AppealOutcome } | null>(
    null,
  );
  const items = list.data?.items ?? [];

  const decide = async (response: string) => {
    if (!deciding) return;
    const { appeal, outcome } = deciding;
    try {
      await callApi(callRoutes.decideAppeal, {
        params: { id: appeal.id },
        body: response ? { outcome, response } : { outcome },
      });
    } finally {
      void refresh();
    }
    toast({
      title: outcome === 'lift' ? 'Appeal lifted' : 'Appeal upheld',
      description:
        outcome === 'lift'
          ? `${LIFT_EFFECTS[appeal.decision.kind]} ${memberName(appeal)} is told.`
          : `The decision stands. ${memberName(appeal)} is told.`,
    });
  };

  return (
    <AdminFrame
      title="Appeals"
      toolbar={
        <Toolbar>
          <StatusFilter
            value={status}
            options={APPEAL_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }))}
            onChange={setStatus}
          />
        </Toolbar>
      }
    >
      <ListState
        what="appeals"
        isLoading={list.isLoading}
        error={list.error}
        empty={items.length === 0}
        emptyText={
          status === 'pending' ? 'No appeal is waiting.' : `No appeal has been ${status} yet.`
        }
        onRetry={() => void list.mutate()}
      />
      {items.length > 0 && (
        <Rows aria-label={`${STATUS_LABELS[status]} appeals`}>
          {items.map((appeal) => {
            const { decision } = appeal;
            const name = memberName(appeal);
            return (
              <li key={appeal.id}>
                <Row aria-label={`Appeal by ${name}`}>
                  <Meta>
                    <Badge $tone="danger">{DECISION_LABELS[decision.kind]}</Badge>
                    {appeal.member ? (
                      <Link to={`/profile/${appeal.member.id}`}>{name}</Link>
                    ) : (
                      <span>{name}</span>
                    )}
                    <span aria-hidden="true">·</span>
                    <time dateTime={appeal.createdAt}>
                      appealed {relativeTime(appeal.createdAt)}
                    </time>
                    {appeal.status !== 'pending' && <Badge>{STATUS_LABELS[appeal.status]}</Badge>}
                  </Meta>
                  <Meta>
                    Reason given: {REPORT_CATEGORY_LABELS[decision.reason.category]}
                    {decision.reason.text && ` (${decision.reason.text})`}, decided{' '}
                    {relativeTime(decision.decidedAt)}
                    {decision.postId !== null && (
                      <Link to={`/post/${decision.postId}`}>
                        {decision.kind === 'comment_removal' ? 'Open its post' : 'Open post'}
                      </Link>
                    )}
                  </Meta>
                  {decision.content !== null && <Quote>{decision.content}</Quote>}
                  <h2>What {name} says</h2>
                  <p>{appeal.text}</p>
                  {appeal.response && <Meta>Answered: {appeal.response}</Meta>}
                  {appeal.status === 'pending' && (
                    <RowActions>
                      <Button
                        size="sm"
                        variant="secondary"
                        onClick={() => setDeciding({ appeal, outcome: 'uphold' })}
                        aria-label={`Uphold the decision appealed by ${name}`}
                      >
                        Uphold
                      </Button>
                      <Button
                        size="sm"
                        onClick={() => setDeciding({ appeal, outcome: 'lift' })}
                        aria-label={`Lift the decision appealed by ${name}`}
                      >
                        Lift
                      </Button>
                    </RowActions>
                  )}
                </Row>
              </li>
            );
          })}
        </Rows>
      )}
      {list.data && (
        <Pager
          label="Appeals pages"
          page={page}
          pageSize={list.data.pageSize}
          total={list.data.total}
          onPage={setPage}
        />
      )}
      <ReasonDialog
        open={deciding !== null}
        onOpenChange={(open) => !open && setDeciding(null)}
        title={deciding?.outcome === 'uphold' ? 'Uphold the decision?' : 'Lift the decision?'}
        description={
          deciding
            ? deciding.outcome === 'lift'
              ? `${LIFT_EFFECTS[deciding.appeal.decision.kind]} ${memberName(deciding.appeal)} is told.`
              : `The decision stands. ${memberName(deciding.appeal)} is told.`
            : undefined
        }
        label="Words for the member (optional)"
        maxLength={MODERATION_REASON_TEXT_MAX_LENGTH}
        confirmText={deciding?.outcome === 'uphold' ? 'Uphold' : 'Lift'}
        busyText="Saving..."
        validate={() => null}
        onConfirm={decide}
        failureMessage={(failure) =>
          (failure instanceof ApiError && failure.serverMessage) ||
          'Failed to decide the appeal. Please try again.'
        }
      />
    </AdminFrame>
  );
}
