import type { CategoryReasonDialogProps } from './category-reason-dialog-panel';
import { lazyOnOpen } from './lazy-on-open';

export type { CategoryReasonDialogProps };

/**
 * A dialog that asks for a category and words before an action (category-reason-dialog-
 * panel.tsx): report something, remove it, suspend a member (issue 38). Its code is fetched the
 * first time one opens.
 */
export const CategoryReasonDialog = lazyOnOpen<CategoryReasonDialogProps>(() =>
  import('./category-reason-dialog-panel').then(
    (module) => module.CategoryReasonDialogPanel as (props: CategoryReasonDialogProps) => JSX.Element,
  ),
);
