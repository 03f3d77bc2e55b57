import { toast } from '@campus/kit/toast';
import { lazyOnOpen, ReasonDialog } from '@campus/kit/ui';
import type { ReportDialogProps } from './report-request';

/**
 * The report dialog every app uses (report-dialog.tsx), fetched the first time one opens: the '⋯'
 * menu sits on every post card, but the dialog and zod, which checks the reason with the API's
 * own schema, are needed only by someone who reports. The reason dialog it is drawn with is
 * fetched at the same time. Nothing is rendered until then, and the dialog appears as soon as its
 * code is there. If the code cannot be fetched, the dialog closes with an error toast and the
 * next opening tries again.
 */
export const ReportDialog = lazyOnOpen<ReportDialogProps>(
  () =>
    Promise.all([import('./report-dialog'), ReasonDialog.preload()]).then(
      ([module]) => module.ReportDialog,
    ),
  () =>
    toast({
      title: 'Error',
      description: 'Failed to send the report. Please try again.',
      variant: 'destructive',
    }),
);
