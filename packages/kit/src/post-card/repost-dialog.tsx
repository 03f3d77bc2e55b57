import { toast } from '@campus/kit/toast';
import { Dialog, lazyOnOpen } from '@campus/kit/ui';
import type { RepostDialogProps } from './repost-dialog-panel';

export type { RepostDialogProps };

/**
 * Spec §2 repost dialog (repost-dialog-panel.tsx): every post card has one, so its code (and the
 * dialog's, in parallel) is fetched the first time a member opens one. If it cannot be fetched,
 * the dialog closes with the repost failure toast of spec §8 and the next opening tries again.
 */
export const RepostDialog = lazyOnOpen<RepostDialogProps>(
  () =>
    Promise.all([import('./repost-dialog-panel'), Dialog.preload()]).then(
      ([module]) => module.RepostDialogPanel,
    ),
  () =>
    toast({
      title: 'Error',
      description: 'Failed to repost. Please try again.',
      variant: 'destructive',
    }),
);
