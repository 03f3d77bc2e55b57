import { ApiError } from '@campus/kit/api';
import { ReasonDialog as KitReasonDialog } from '@campus/kit/ui';

/**
 * A dialog that asks for a reason before an action (reject an application): the kit's reason
 * dialog with the admin pages' rules. (A removal and a suspension ask for a category too: the
 * kit's CategoryReasonDialog.) `onConfirm` does the request; its failure
 * keeps the dialog open with the server's message.
 */
export function ReasonDialog({
  required,
  ...props
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  label: string;
  confirmText: string;
  required: boolean;
  maxLength: number;
  onConfirm: (reason: string) => Promise<void>;
}) {
  return (
    <KitReasonDialog
      {...props}
      required={required}
      confirmVariant="destructive"
      validate={(reason) => (required && !reason ? 'Reason is required' : null)}
      failureMessage={(failure) =>
        (failure instanceof ApiError && failure.serverMessage) ||
        'Something went wrong. Please try again.'
      }
    />
  );
}
