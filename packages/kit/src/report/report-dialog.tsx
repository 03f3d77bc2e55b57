// The report dialog itself: loaded on its first opening (lazy-report-dialog.tsx), so zod, which
// validates the reason with the API's own schema, arrives only when someone reports.
import {
  ALREADY_REPORTED_MESSAGE,
  REPORT_REASON_MAX_LENGTH,
  reportRequestSchema,
} from '@campus/contracts';
import { ApiError, failureDescription } from '@campus/kit/api';
import { toast } from '@campus/kit/toast';
import { ReasonDialog } from '@campus/kit/ui';
import { REPORT_TITLES, sendReport, type ReportDialogProps } from './report-request';

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
