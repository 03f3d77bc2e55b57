import type { ReasonDialogProps } from './reason-dialog-panel';
import { lazyOnOpen } from './lazy-on-open';

export type { ReasonDialogProps };

/**
 * A dialog that asks for a reason before an action (reason-dialog-panel.tsx): report a post,
 * reject an application, suspend a member. Its code is fetched the first time one opens.
 */
export const ReasonDialog = lazyOnOpen<ReasonDialogProps>(() =>
  import('./reason-dialog-panel').then((module) => module.ReasonDialogPanel),
);
