import type { ComponentType, ReactElement } from 'react';
import type { CategoryReasonDialogProps } from './category-reason-dialog-panel';
import { lazyOnOpen } from './lazy-on-open';

export type { CategoryReasonDialogProps };

const LazyCategoryReasonDialog = lazyOnOpen<CategoryReasonDialogProps>(() =>
  import('./category-reason-dialog-panel').then(
    (module) => module.CategoryReasonDialogPanel as ComponentType<CategoryReasonDialogProps>,
  ),
);

/**
 * A dialog that asks for a category and words before an action (category-reason-dialog-
 * panel.tsx): report something, remove it, suspend a member (issue 38). Its code is fetched the
 * first time one opens. Typed by its categories: `onConfirm` gets one of them.
 */
export const CategoryReasonDialog = LazyCategoryReasonDialog as typeof LazyCategoryReasonDialog &
  (<C extends string>(props: CategoryReasonDialogProps<C>) => ReactElement | null);
