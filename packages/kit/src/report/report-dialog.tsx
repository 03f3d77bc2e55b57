import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import {
  ALREADY_REPORTED_MESSAGE,
  REPORT_REASON_MAX_LENGTH,
  reportRequestSchema,
  type ReportResponse,
  type ReportTargetType,
} from '@campus/contracts';
import { ApiError, apiRequest, failureDescription } from '@campus/kit/api';
import { toast } from '@campus/kit/toast';
import { Button, Dialog, TextArea } from '@campus/kit/ui';

const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(2)};
`;

/** The dialog's title for each kind of target. */
export const REPORT_TITLES: Record<ReportTargetType, string> = {
  post: 'Report post',
  comment: 'Report comment',
  user: 'Report user',
};

export interface ReportDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  targetType: ReportTargetType;
  targetId: number;
}

/** `POST /api/reports` (issue 18): a member reports a post, a comment or a member, once. */
export function sendReport(
  targetType: ReportTargetType,
  targetId: number,
  reason: string,
): Promise<ReportResponse> {
  return apiRequest<ReportResponse>('/api/reports', {
    method: 'POST',
    body: { targetType, targetId, reason },
  });
}

/**
 * The report dialog every app uses: a required reason, sent to the Campus team. Success and a
 * second report of the same target (409) each end in a toast and close the dialog; any other
 * failure keeps the dialog and the typed reason, with the server's message under the field.
 */
export function ReportDialog({ open, onOpenChange, targetType, targetId }: ReportDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const close = () => {
    setReason('');
    setError(null);
    onOpenChange(false);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    const parsed = reportRequestSchema.safeParse({ targetType, targetId, reason });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Reason is required');
      return;
    }
    setSending(true);
    try {
      await sendReport(targetType, targetId, parsed.data.reason);
      toast({
        title: 'Report sent',
        description: 'Thank you. The Campus team will review it.',
      });
      close();
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 409) {
        toast({ title: 'Already reported', description: ALREADY_REPORTED_MESSAGE });
        close();
        return;
      }
      setError(
        failure instanceof ApiError && failure.status < 500 && failure.serverMessage
          ? failureDescription(failure, failure.serverMessage)
          : 'Failed to send the report. Please try again.',
      );
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title={REPORT_TITLES[targetType]}
      description="Tell the Campus team what is wrong. Nobody else sees who reported it."
    >
      <Form noValidate onSubmit={onSubmit}>
        <TextArea
          label="Reason"
          rows={4}
          maxLength={REPORT_REASON_MAX_LENGTH}
          placeholder="Spam, harassment, false information..."
          value={reason}
          error={error ?? undefined}
          onChange={(event) => {
            setReason(event.target.value);
            setError(null);
          }}
        />
        <Actions>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={sending}>
            {sending ? 'Sending...' : 'Send report'}
          </Button>
        </Actions>
      </Form>
    </Dialog>
  );
}
