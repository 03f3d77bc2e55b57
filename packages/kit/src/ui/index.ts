// The design-system primitives every app builds with (a deliberate list, not a re-export of the kit).
export { Button } from './button';
export type { ButtonProps } from './button';
export { Avatar } from './avatar';
export { Badge } from './badge';
export { Checkbox } from './checkbox';
export { Dialog } from './dialog';
export type { DialogProps } from './dialog';
export { EmptyState } from './empty-state';
export { lazyOnOpen } from './lazy-on-open';
export type { OpenableProps } from './lazy-on-open';
export { ReasonDialog } from './reason-dialog';
export type { ReasonDialogProps } from './reason-dialog';
export { Skeleton } from './skeleton';
export { Spinner } from './spinner';
export { Tabs } from './tabs';
export type { TabItem } from './tabs';
export { TextArea } from './text-area';
export { TextField } from './text-field';
