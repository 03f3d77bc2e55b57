// The dialogs of one's own words, fetched the first time one opens (issue 22: a page's first
// load carries no dialog nobody opened). A failure to fetch closes it with a toast.
import { toast } from '@campus/kit/toast';
import { Dialog, lazyOnOpen } from '@campus/kit/ui';
import type { EditTextDialogProps } from './edit-text-dialog-panel';
import type { VersionsDialogProps } from './versions-dialog-panel';

export type { EditTextDialogProps, VersionsDialogProps };

const failed = () =>
  toast({
    title: 'Error',
    description: 'Something went wrong. Please try again.',
    variant: 'destructive',
  });

export const EditTextDialog = lazyOnOpen<EditTextDialogProps>(
  () =>
    Promise.all([import('./edit-text-dialog-panel'), Dialog.preload()]).then(
      ([module]) => module.EditTextDialogPanel,
    ),
  failed,
);

export const VersionsDialog = lazyOnOpen<VersionsDialogProps>(
  () =>
    Promise.all([import('./versions-dialog-panel'), Dialog.preload()]).then(
      ([module]) => module.VersionsDialogPanel,
    ),
  failed,
);
