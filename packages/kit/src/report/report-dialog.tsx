import {
  ALREADY_REPORTED_MESSAGE,
  REPORT_REASON_MAX_LENGTH,
  reportRequestSchema,
  type ReportResponse,
  type ReportTargetType,
} from '@campus/contracts';
import { ApiError, apiRequest, failureDescription } from '@campus/kit/api';
import { toast } from '@campus/kit/toast';
import { ReasonDialog } from '@campus/kit/ui';

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
  return (
    <ReasonDialog
      open={open}
      onOpenChange={onOpenChange}
      title={REPORT_TITLES[targetType]}
      description="Tell the Campus team what is wrong. Nobody else sees who reported it."
      label="Reason"
      placeholder="Spam, harassment, false information..."
      maxLength={REPORT_REASON_MAX_LENGTH}
      confirmText="Send report"
      busyText="Sending..."
      validate={(reason) => {
        const parsed = reportRequestSchema.safeParse({ targetType, targetId, reason });
        return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Reason is required');
      }}
      onConfirm={async (reason) => {
        try {
          await sendReport(targetType, targetId, reason);
          toast({
            title: 'Report sent',
            description: 'Thank you. The Campus team will review it.',
          });
        } catch (failure) {
          if (!(failure instanceof ApiError && failure.status === 409)) throw failure;
          toast({ title: 'Already reported', description: ALREADY_REPORTED_MESSAGE });
        }
      }}
      failureMessage={(failure) =>
        failure instanceof ApiError && failure.status < 500 && failure.serverMessage
          ? failureDescription(failure, failure.serverMessage)
          : 'Failed to send the report. Please try again.'
      }
    />
  );
}
