// The report dialog itself: loaded on its first opening (lazy-report-dialog.tsx).
import {
  ALREADY_REPORTED_MESSAGE,
  REPORT_CATEGORIES,
  REPORT_CATEGORY_LABELS,
  REPORT_REASON_MAX_LENGTH,
} from '@campus/contracts';
import { ApiError, failureDescription } from '@campus/kit/api';
import { toast } from '@campus/kit/toast';
import { CategoryReasonDialog } from '@campus/kit/ui';
import { REPORT_TITLES, sendReport, type ReportDialogProps } from './report-request';

const CATEGORY_CHOICES = REPORT_CATEGORIES.map((value) => ({
  value,
  label: REPORT_CATEGORY_LABELS[value],
}));

/**
 * The report dialog every app uses: what is wrong (one of the categories, issue 38) and optional
 * details, sent to the Campus team. Success and a second report of the same target (409) each
 * end in a toast and close the dialog; any other failure keeps the dialog and what was chosen,
 * with the server's message under the field.
 */
export function ReportDialog({ open, onOpenChange, targetType, targetId }: ReportDialogProps) {
  return (
    <CategoryReasonDialog
      open={open}
      onOpenChange={onOpenChange}
      title={REPORT_TITLES[targetType]}
      description="Tell the Campus team what is wrong. Nobody else sees who reported it."
      legend="What is wrong?"
      categories={CATEGORY_CHOICES}
      label="Details (optional)"
      placeholder="Anything that helps the Campus team understand"
      maxLength={REPORT_REASON_MAX_LENGTH}
      confirmText="Send report"
      busyText="Sending..."
      onConfirm={async ({ category, text }) => {
        try {
          await sendReport(targetType, targetId, { category, reason: text });
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
