import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { toast } from '@campus/kit/toast';
import type { ReportDialog as LoadedReportDialog } from './report-dialog';
import type { ReportDialogProps } from './report-request';

let loaded: typeof LoadedReportDialog | null = null;
let loading: Promise<typeof LoadedReportDialog> | null = null;

/** The dialog's code, fetched once; a failed fetch is tried again at the next opening. */
function loadReportDialog(): Promise<typeof LoadedReportDialog> {
  loading ??= import('./report-dialog').then(
    (module) => (loaded = module.ReportDialog),
    (failure: unknown) => {
      loading = null;
      throw failure;
    },
  );
  return loading;
}

/**
 * The report dialog every app uses (report-dialog.tsx), fetched the first time one opens: the '⋯'
 * menu sits on every post card, but the dialog and zod, which checks the reason with the API's
 * own schema, are needed only by someone who reports. Nothing is rendered until then, and the
 * dialog appears as soon as its code is there. If the code cannot be fetched, the dialog closes
 * with an error toast and the next opening tries again.
 */
export function ReportDialog(props: ReportDialogProps) {
  const { open } = props;
  const [Loaded, setLoaded] = useState<typeof LoadedReportDialog | null>(() => loaded);
  const onOpenChange = useRef(props.onOpenChange);
  useLayoutEffect(() => {
    onOpenChange.current = props.onOpenChange;
  });

  useEffect(() => {
    if (!open || Loaded) return;
    let current = true;
    loadReportDialog().then(
      (dialog) => {
        if (current) setLoaded(() => dialog);
      },
      () => {
        if (!current) return;
        onOpenChange.current(false);
        toast({
          title: 'Error',
          description: 'Failed to send the report. Please try again.',
          variant: 'destructive',
        });
      },
    );
    return () => {
      current = false;
    };
  }, [open, Loaded]);

  return Loaded ? <Loaded {...props} /> : null;
}
