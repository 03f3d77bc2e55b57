import { useState } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import {
  callRoutes,
  MODERATION_REASON_TEXT_MAX_LENGTH,
  REPORT_CATEGORIES,
  REPORT_CATEGORY_LABELS,
  REPORT_STATUSES,
  type AdminReport,
  type ReportCategory,
  type ReportResolution,
  type ReportStatus,
  type ReportTargetType,
} from '@campus/contracts';
import { ApiError, callApi } from '@campus/kit/api';
import { relativeTime } from '@campus/kit/format';
import { PostImages, imagesOf } from '@campus/kit/post-card';
import { toast } from '@campus/kit/toast';
import { Badge, Button, CategoryReasonDialog } from '@campus/kit/ui';
import { useAdminList, useRefreshAdmin } from '../admin/admin-data';
import { AdminFrame } from '../admin/admin-frame';
import { useListParams } from '../admin/list-params';
import { ListState } from '../admin/list-state';
import { Pager } from '../admin/pager';
import { Meta, Row, RowActions, Rows, Toolbar } from '../admin/rows';
import { StatusFilter } from '../admin/status-filter';

const STATUS_LABELS: Record<ReportStatus, string> = { open: 'Open', resolved: 'Resolved' };

const CATEGORY_CHOICES = REPORT_CATEGORIES.map((value) => ({
  value,
  label: REPORT_CATEGORY_LABELS[value],
}));
/** The category filter: '' is every category. */
const CATEGORY_FILTER = [{ value: '' as const, label: 'All categories' }, ...CATEGORY_CHOICES];

const TARGET_LABELS: Record<ReportTargetType, string> = {
  post: 'Post',
  comment: 'Comment',
  user: 'Member',
};

/** What 'remove' does to each kind of target. */
const REMOVE_TEXT: Record<ReportTargetType, string> = {
  post: 'Remove post',
  comment: 'Remove comment',
  user: 'Suspend member',
};

/** How a case was closed; `gone`: what was reported went first (issue 41). */
const RESOLUTION_LABELS: Record<ReportResolution, string> = {
  remove: 'Removed',
  dismiss: 'Dismissed',
  gone: 'Closed: it was deleted',
};

const Reasons = styled.ul`
  display: grid;
  gap: ${({ theme }) => theme.space(1)};
  margin: 0;
  padding-left: ${({ theme }) => theme.space(5)};
  font-size: 0.875rem;

  time {
    margin-left: ${({ theme }) => theme.space(2)};
    font-size: 0.8125rem;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const Quote = styled.blockquote`
  margin: 0;
  padding-left: ${({ theme }) => theme.space(3)};
  border-left: 3px solid ${({ theme }) => theme.colors.border};
  white-space: pre-wrap;
  overflow-wrap: anywhere;
`;

/** A reported post's images, no wider than a feed's. */
const ReportedImages = styled.div`
  max-width: 420px;
`;

function targetName(report: AdminReport): string {
  const author = report.target.author?.name ?? 'a deleted account';
  return report.targetType === 'user'
    ? author
    : `${TARGET_LABELS[report.targetType].toLowerCase()} by ${author}`;
}

/**
 * Issue 18: reported posts, comments and members, one entry per target with every reason;
 * issue 38: each report's category, a filter by category, and a removal's reason for its author.
 */
export default function ReportsPage() {
  const { status, page, params, setStatus, setPage, update } = useListParams(
    REPORT_STATUSES,
    'open',
  );
  const rawCategory = params.get('category');
  const category = REPORT_CATEGORIES.find((value) => value === rawCategory);
  const list = useAdminList(callRoutes.adminReports, { status, page, category });
  const refresh = useRefreshAdmin();
  const [removing, setRemoving] = useState<AdminReport | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const items = list.data?.items ?? [];

  /** Dismisses, or removes with the reason its author is shown. Throws on failure (the dialog). */
  const resolve = async (
    report: AdminReport,
    decision:
      { action: 'dismiss' } | { action: 'remove'; category: ReportCategory; reason: string },
  ) => {
    const { action } = decision;
    setBusyId(report.id);
    try {
      const body =
        decision.action === 'remove' && !decision.reason
          ? { action: decision.action, category: decision.category }
          : decision;
      await callApi(callRoutes.resolveReport, { params: { id: report.id }, body });
      toast({
        title: action === 'dismiss' ? 'Report dismissed' : 'Removed',
        description:
          action === 'dismiss'
            ? `The ${targetName(report)} stays.`
            : report.targetType === 'user'
              ? `${targetName(report)} is suspended.`
              : `The ${targetName(report)} is removed and its author told.`,
      });
      void refresh();
    } catch (error) {
      void refresh();
      if (action === 'remove') throw error;
      toast({
        title: 'Error',
        description:
          (error instanceof ApiError && error.serverMessage) ||
          'Failed to resolve the report. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setBusyId(null);
    }
  };

  return (
    <AdminFrame
      title="Reports"
      toolbar={
        <Toolbar>
          <StatusFilter
            value={status}
            options={REPORT_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }))}
            onChange={setStatus}
          />
          <StatusFilter
            label="Category"
            value={category ?? ''}
            options={CATEGORY_FILTER}
            onChange={(value) => update({ category: value || null, page: null })}
          />
        </Toolbar>
      }
    >
      <ListState
        what="reports"
        isLoading={list.isLoading}
        error={list.error}
        empty={items.length === 0}
        emptyText={status === 'open' ? 'Nothing is reported.' : 'No report has been resolved yet.'}
        onRetry={() => void list.mutate()}
      />
      {items.length > 0 && (
        <Rows aria-label={`${STATUS_LABELS[status]} reports`}>
          {items.map((report) => {
            const { target } = report;
            const name = targetName(report);
            return (
              <li key={report.id}>
                <Row aria-label={`Reported ${name}`}>
                  <Meta>
                    <Badge $tone="danger">{TARGET_LABELS[report.targetType]}</Badge>
                    <strong>
                      {report.reportCount} {report.reportCount === 1 ? 'report' : 'reports'}
                    </strong>
                    <span aria-hidden="true">·</span>
                    <time dateTime={report.lastReportedAt}>
                      last {relativeTime(report.lastReportedAt)}
                    </time>
                    {target.removed && (
                      <Badge>{report.targetType === 'user' ? 'Suspended' : 'Removed'}</Badge>
                    )}
                  </Meta>
                  <Meta>
                    {target.author ? (
                      <Link to={`/profile/${target.author.id}`}>{target.author.name}</Link>
                    ) : (
                      <span>A deleted account</span>
                    )}
                    {target.postId !== null && !target.removed && (
                      <Link to={`/post/${target.postId}`}>
                        {report.targetType === 'comment' ? 'Open its post' : 'Open post'}
                      </Link>
                    )}
                  </Meta>
                  {target.content !== null && <Quote>{target.content}</Quote>}
                  {imagesOf(target).length > 0 && (
                    <ReportedImages>
                      {/* Blurred until the administrator asks to see them (issue 39). */}
                      <PostImages images={imagesOf(target)} hidden />
                    </ReportedImages>
                  )}
                  <Reasons aria-label="Reasons">
                    {report.reasons.map((reason, index) => (
                      <li key={`${reason.createdAt}-${index}`}>
                        <Badge>{REPORT_CATEGORY_LABELS[reason.category]}</Badge>
                        {reason.reason && <> {reason.reason}</>}
                        <time dateTime={reason.createdAt}>{relativeTime(reason.createdAt)}</time>
                      </li>
                    ))}
                  </Reasons>
                  {report.resolution && (
                    <Meta>
                      {RESOLUTION_LABELS[report.resolution.action]}{' '}
                      {relativeTime(report.resolution.resolvedAt)}
                      {report.resolution.reason && (
                        <span>
                          · Reason: {REPORT_CATEGORY_LABELS[report.resolution.reason.category]}
                          {report.resolution.reason.text && ` (${report.resolution.reason.text})`}
                        </span>
                      )}
                    </Meta>
                  )}
                  {report.status === 'open' && (
                    <RowActions>
                      <Button
                        size="sm"
                        variant="secondary"
                        disabled={busyId === report.id}
                        onClick={() => void resolve(report, { action: 'dismiss' })}
                        aria-label={`Dismiss the reports of the ${name}`}
                      >
                        Dismiss
                      </Button>
                      {/* Nothing to remove once it is gone (the API closes such cases). */}
                      {!target.removed && (
                        <Button
                          size="sm"
                          variant="destructive"
                          disabled={busyId === report.id}
                          onClick={() => setRemoving(report)}
                          aria-label={`${REMOVE_TEXT[report.targetType]} (${name})`}
                        >
                          {REMOVE_TEXT[report.targetType]}
                        </Button>
                      )}
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
          label="Reports pages"
          page={page}
          pageSize={list.data.pageSize}
          total={list.data.total}
          onPage={setPage}
        />
      )}
      <CategoryReasonDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={removing ? `${REMOVE_TEXT[removing.targetType]}?` : 'Remove?'}
        description={
          removing?.targetType === 'user'
            ? `${targetName(removing)} is signed out and hidden until you reactivate them on the Members page. They see the reason when they sign in, and may appeal.`
            : `The ${removing ? targetName(removing) : 'content'} disappears for everyone. Its author is told the reason, without who reported it, and may appeal.`
        }
        legend="Reason"
        categories={CATEGORY_CHOICES}
        label="Words for the member (optional)"
        maxLength={MODERATION_REASON_TEXT_MAX_LENGTH}
        confirmText={removing ? REMOVE_TEXT[removing.targetType] : 'Remove'}
        confirmVariant="destructive"
        onConfirm={async ({ category: reasonCategory, text }) => {
          if (removing) {
            await resolve(removing, {
              action: 'remove',
              category: reasonCategory as ReportCategory,
              reason: text,
            });
          }
        }}
        failureMessage={(failure) =>
          (failure instanceof ApiError && failure.serverMessage) ||
          'Failed to resolve the report. Please try again.'
        }
      />
    </AdminFrame>
  );
}
