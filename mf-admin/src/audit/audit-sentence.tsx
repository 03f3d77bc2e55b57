import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import {
  REPORT_CATEGORY_LABELS,
  type AuditEntry,
  type DecisionKind,
  type ReportCategory,
} from '@campus/contracts';
import { FEEDBACK_STATUS_LABELS } from '../feedback/feedback-labels';

type Details = AuditEntry['details'];

const text = (details: Details, name: string): string | null => {
  const value = details[name];
  return typeof value === 'string' && value !== '' ? value : null;
};
const id = (details: Details, name: string): number | null => {
  const value = details[name];
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
};

const DECISION_TEXT: Record<DecisionKind, string> = {
  suspension: 'suspension',
  post_removal: 'post removal',
  comment_removal: 'comment removal',
};

/** What was reported, as a link where there is something to open. */
function reportedTarget(details: Details): ReactNode {
  const targetId = id(details, 'targetId');
  switch (details.targetType) {
    case 'post':
      return targetId ? <Link to={`/post/${targetId}`}>post #{targetId}</Link> : 'a post';
    case 'comment': {
      const postId = id(details, 'postId');
      return (
        <>
          comment #{targetId ?? '?'}
          {postId && (
            <>
              {' '}
              on <Link to={`/post/${postId}`}>post #{postId}</Link>
            </>
          )}
        </>
      );
    }
    case 'user':
      return targetId ? <Link to={`/profile/${targetId}`}>member #{targetId}</Link> : 'a member';
    default:
      return 'reported content';
  }
}

const member = (memberId: number, name: string | null): ReactNode => (
  <Link to={`/profile/${memberId}`}>{name ?? `member #${memberId}`}</Link>
);

/** What the administrator did, after their name: "removed post #162". */
function deed(entry: AuditEntry): ReactNode {
  const { details, target } = entry;
  const name = text(details, 'name');
  switch (entry.action) {
    case 'application.approve':
      return (
        <>
          approved the{' '}
          <Link to="/admin/applications?status=approved">application #{target.id}</Link> of{' '}
          {name ?? 'an applicant'}
          {text(details, 'email') && ` (${text(details, 'email')})`}
        </>
      );
    case 'application.reject':
      return (
        <>
          rejected the{' '}
          <Link to="/admin/applications?status=rejected">application #{target.id}</Link> of{' '}
          {name ?? 'an applicant'}
        </>
      );
    case 'feedback.update': {
      const status = text(details, 'status');
      const label = status
        ? (FEEDBACK_STATUS_LABELS[status as keyof typeof FEEDBACK_STATUS_LABELS] ?? status)
        : null;
      const link = (
        <Link to={`/admin/feedback${status ? `?status=${status}` : ''}`}>
          feedback #{target.id}
        </Link>
      );
      return (
        <>
          {text(details, 'reply') ? 'replied to ' : 'updated '}
          {link}
          {label && ` and marked it ${label.toLowerCase()}`}
        </>
      );
    }
    case 'user.suspend':
      return <>suspended {member(target.id, name)}</>;
    case 'user.reactivate':
      return <>reactivated {member(target.id, name)}</>;
    case 'report.remove':
      return (
        <>
          {details.targetType === 'user' ? 'suspended' : 'removed'} {reportedTarget(details)} after{' '}
          {reportsCount(details)}
        </>
      );
    case 'report.dismiss':
      return (
        <>
          dismissed {reportsCount(details)} of {reportedTarget(details)}
        </>
      );
    case 'mail.retry':
      return (
        <>
          retried the e-mail “{text(details, 'subject') ?? 'untitled'}” to{' '}
          {text(details, 'to') ?? 'its address'}
        </>
      );
    case 'appeal.lift':
    case 'appeal.uphold': {
      const memberId = id(details, 'member');
      const kind = DECISION_TEXT[details.kind as DecisionKind] ?? 'decision';
      return (
        <>
          {entry.action === 'appeal.lift' ? 'lifted' : 'upheld'} the {kind} of{' '}
          {memberId ? member(memberId, null) : 'a member'} on{' '}
          <Link
            to={`/admin/appeals?status=${entry.action === 'appeal.lift' ? 'lifted' : 'upheld'}`}
          >
            appeal #{target.id}
          </Link>
        </>
      );
    }
  }
}

function reportsCount(details: Details): string {
  const count = id(details, 'reports') ?? 1;
  return count === 1 ? '1 report' : `${count} reports`;
}

/**
 * Issue 41: an audit entry as a sentence with links to what it is about ("Campus Admin removed
 * post #162 after 2 reports"), instead of its raw fields.
 */
export function AuditSentence({ entry }: { entry: AuditEntry }) {
  return (
    <>
      {entry.admin ? (
        <Link to={`/profile/${entry.admin.id}`}>{entry.admin.name}</Link>
      ) : (
        'A deleted account'
      )}{' '}
      {deed(entry)}.
    </>
  );
}

/** The reason the entry carries, as the member was told it: "Spam: words", or null. */
export function auditReason(details: Details): string | null {
  const category = text(details, 'category');
  const words = text(details, 'reason');
  const label = category ? (REPORT_CATEGORY_LABELS[category as ReportCategory] ?? category) : null;
  if (label && words) return `${label}: ${words}`;
  return label ?? words;
}
