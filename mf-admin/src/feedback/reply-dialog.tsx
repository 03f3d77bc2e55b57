import { useId, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import {
  FEEDBACK_REPLY_MAX_LENGTH,
  FEEDBACK_STATUSES,
  type AdminFeedback,
  type AdminFeedbackUpdate,
  type FeedbackStatus,
} from '@campus/contracts';
import { ApiError } from '@campus/kit/api';
import { Button, Dialog, TextArea } from '@campus/kit/ui';
import { controlStyle } from '../admin/control-style';
import { FEEDBACK_STATUS_LABELS } from './feedback-labels';

const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};

  blockquote {
    margin: 0;
    padding-left: ${({ theme }) => theme.space(3)};
    border-left: 3px solid ${({ theme }) => theme.colors.border};
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
`;

const Field = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(1.5)};

  label {
    font-size: 0.875rem;
    font-weight: 600;
  }
  select {
    ${controlStyle}
  }
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(2)};
`;

/**
 * Replies to a feedback and, or only, sets its status: the member gets the reply as a
 * notification. Opened for one feedback at a time (`feedback` null: closed), on its status.
 */
export function ReplyDialog({
  feedback,
  onClose,
  onSave,
}: {
  feedback: AdminFeedback | null;
  onClose: () => void;
  onSave: (feedback: AdminFeedback, update: AdminFeedbackUpdate) => Promise<void>;
}) {
  return (
    <Dialog
      open={feedback !== null}
      onOpenChange={(open) => !open && onClose()}
      title={feedback?.author ? `Feedback from ${feedback.author.name}` : 'Feedback'}
    >
      {feedback && (
        <ReplyForm key={feedback.id} feedback={feedback} onClose={onClose} onSave={onSave} />
      )}
    </Dialog>
  );
}

function ReplyForm({
  feedback,
  onClose,
  onSave,
}: {
  feedback: AdminFeedback;
  onClose: () => void;
  onSave: (feedback: AdminFeedback, update: AdminFeedbackUpdate) => Promise<void>;
}) {
  const statusId = useId();
  // Issue 41: the feedback's own status, not a guess: replying does not resolve it unasked.
  const [status, setStatus] = useState<FeedbackStatus>(feedback.status);
  const [reply, setReply] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const replying = reply.trim() !== '';

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || (!replying && status === feedback.status)) return;
    const text = reply.trim();
    setBusy(true);
    try {
      await onSave(feedback, text ? { status, reply: text } : { status });
      onClose();
    } catch (failure) {
      setError(
        (failure instanceof ApiError && failure.serverMessage) ||
          'Failed to update the feedback. Please try again.',
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form noValidate onSubmit={onSubmit}>
      <blockquote>{feedback.message}</blockquote>
      <Field>
        <label htmlFor={statusId}>Status</label>
        <select
          id={statusId}
          value={status}
          onChange={(event) => setStatus(event.target.value as FeedbackStatus)}
        >
          {FEEDBACK_STATUSES.map((value) => (
            <option key={value} value={value}>
              {FEEDBACK_STATUS_LABELS[value]}
            </option>
          ))}
        </select>
      </Field>
      <TextArea
        label="Reply to the member (optional)"
        rows={4}
        maxLength={FEEDBACK_REPLY_MAX_LENGTH}
        value={reply}
        error={error ?? undefined}
        onChange={(event) => {
          setReply(event.target.value);
          setError(null);
        }}
      />
      <Actions>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        {/* Says what it will do: a reply is sent (with the status as chosen), or only the
            status is saved, which needs a status other than the one it has. */}
        <Button type="submit" disabled={busy || (!replying && status === feedback.status)}>
          {replying ? 'Send reply' : 'Save status'}
        </Button>
      </Actions>
    </Form>
  );
}
