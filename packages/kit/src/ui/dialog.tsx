import type { DialogProps } from './dialog-panel';
import { lazyOnOpen } from './lazy-on-open';

export type { DialogProps };

/**
 * A modal dialog (dialog-panel.tsx): focus moves inside and stays there (Tab wraps), Escape or a
 * click on the backdrop closes it, and focus returns to whatever had it before. Its code is
 * fetched the first time a dialog opens.
 */
export const Dialog = lazyOnOpen<DialogProps>(() =>
  import('./dialog-panel').then((module) => module.DialogPanel),
);
