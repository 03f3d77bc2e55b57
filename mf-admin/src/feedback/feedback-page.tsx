import { useState } from 'react';
import { Link } from 'react-router-dom';
import {
  callRoutes,
  FEEDBACK_STATUSES,
  type AdminFeedback,
  type AdminFeedbackUpdate,
  type FeedbackStatus,
} from '@campus/contracts';
import { callApi } from '@campus/kit/api';
import { relativeTime } from '@campus/kit/format';
import { toast } from '@campus/kit/toast';
import { Button } from '@campus/kit/ui';
import { useAdminList, useRefreshAdmin } from '../admin/admin-data';
import { AdminFrame } from '../admin/admin-frame';
import { useListParams } from '../admin/list-params';
import { ListState } from '../admin/list-state';
import { Pager } from '../admin/pager';
import { Meta, Row, RowActions, Rows, Toolbar } from '../admin/rows';
import { StatusFilter } from '../admin/status-filter';
import { FEEDBACK_STATUS_LABELS } from './feedback-labels';
import { ReplyDialog } from './reply-dialog';

const EMPTY_TEXT: Record<FeedbackStatus, string> = {
  pending: 'No feedback is waiting for a reply.',
  in_progress: 'No feedback is in progress.',
  resolved: 'No feedback has been resolved yet.',
};

/** Issue 18: members' feedback, newest first; set its status and reply to the member. */
export default function FeedbackPage() {
  const { status, page, setStatus, setPage } = useListParams(FEEDBACK_STATUSES, 'pending');
  const list = useAdminList(callRoutes.adminFeedback, { status, page });
  const refresh = useRefreshAdmin();
  const [open, setOpen] = useState<AdminFeedback | null>(null);
  const items = list.data?.items ?? [];

  const save = async (feedback: AdminFeedback, update: AdminFeedbackUpdate) => {
    await callApi(callRoutes.updateFeedback, { params: { id: feedback.id }, body: update });
    toast({
      title: update.reply ? 'Reply sent' : 'Feedback updated',
      description: update.reply
        ? `${feedback.author?.name ?? 'The member'} will see it in their notifications.`
        : `Marked as ${FEEDBACK_STATUS_LABELS[update.status].toLowerCase()}.`,
    });
    void refresh();
  };

  return (
    <AdminFrame
      title="Feedback"
      toolbar={
        <Toolbar>
          <StatusFilter
            value={status}
            options={FEEDBACK_STATUSES.map((value) => ({
              value,
              label: FEEDBACK_STATUS_LABELS[value],
            }))}
            onChange={setStatus}
          />
        </Toolbar>
      }
    >
      <ListState
        what="feedback"
        isLoading={list.isLoading}
        error={list.error}
        empty={items.length === 0}
        emptyText={EMPTY_TEXT[status]}
        onRetry={() => void list.mutate()}
      />
      {items.length > 0 && (
        <Rows aria-label={`${FEEDBACK_STATUS_LABELS[status]} feedback`}>
          {items.map((feedback) => {
            const from = feedback.author?.name ?? 'A deleted account';
            return (
              <li key={feedback.id}>
                <Row aria-label={`Feedback from ${from}`}>
                  <Meta>
                    {feedback.author ? (
                      <Link to={`/profile/${feedback.author.id}`}>{feedback.author.name}</Link>
                    ) : (
                      <span>{from}</span>
                    )}
                    {feedback.author && <span>{feedback.author.email}</span>}
                    <span aria-hidden="true">·</span>
                    <time dateTime={feedback.createdAt}>{relativeTime(feedback.createdAt)}</time>
                  </Meta>
                  <p>{feedback.message}</p>
                  {feedback.reply && (
                    <Meta>
                      Replied {feedback.repliedAt ? relativeTime(feedback.repliedAt) : ''}:{' '}
                      {feedback.reply}
                    </Meta>
                  )}
                  <RowActions>
                    <Button
                      size="sm"
                      variant={feedback.status === 'resolved' ? 'secondary' : 'primary'}
                      onClick={() => setOpen(feedback)}
                      aria-label={`Reply to feedback from ${from}`}
                    >
                      Reply or set status
                    </Button>
                  </RowActions>
                </Row>
              </li>
            );
          })}
        </Rows>
      )}
      {list.data && (
        <Pager
          label="Feedback pages"
          page={page}
          pageSize={list.data.pageSize}
          total={list.data.total}
          onPage={setPage}
        />
      )}
      <ReplyDialog feedback={open} onClose={() => setOpen(null)} onSave={save} />
    </AdminFrame>
  );
}
