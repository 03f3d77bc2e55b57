import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { Button, type ButtonProps } from './button';
import { DialogPanel as Dialog } from './dialog-panel';
import { TextArea } from './text-area';

const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(2)};
`;

export interface ReasonDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  label: string;
  placeholder?: string;
  maxLength: number;
  /** Marks the field required for assistive technology (`validate` decides what is sent). */
  required?: boolean;
  confirmText: string;
  /** The confirm button's text while `onConfirm` runs (default: `confirmText`). */
  busyText?: string;
  confirmVariant?: ButtonProps['variant'];
  /** The message under the field for a reason that cannot be sent, or null to send it. */
  validate: (reason: string) => string | null;
  /** Does the request with the trimmed reason; the dialog closes when it resolves. */
  onConfirm: (reason: string) => Promise<void>;
  /** What a failed `onConfirm` says under the field (the dialog stays open with the reason). */
  failureMessage: (failure: unknown) => string;
}

/**
 * A dialog that asks for a reason before an action (report a post, reject an application,
 * suspend a member): validated on submit, sent once at a time, closed on success, and kept open
 * with the typed reason and a message under the field on failure. Closing clears it. Apps use
 * `ReasonDialog` (reason-dialog.tsx), which fetches this code the first time one opens.
 */
export function ReasonDialogPanel({
  open,
  onOpenChange,
  title,
  description,
  label,
  placeholder,
  maxLength,
  required,
  confirmText,
  busyText = confirmText,
  confirmVariant,
  validate,
  onConfirm,
  failureMessage,
}: ReasonDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setReason('');
    setError(null);
    onOpenChange(false);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const trimmed = reason.trim();
    const invalid = validate(trimmed);
    if (invalid) {
      setError(invalid);
      return;
    }
    setBusy(true);
    try {
      await onConfirm(trimmed);
      close();
    } catch (failure) {
      setError(failureMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title={title}
      description={description}
    >
      <Form noValidate onSubmit={onSubmit}>
        <TextArea
          label={label}
          rows={4}
          maxLength={maxLength}
          placeholder={placeholder}
          value={reason}
          required={required}
          error={error ?? undefined}
          onChange={(event) => {
            setReason(event.target.value);
            setError(null);
          }}
        />
        <Actions>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" variant={confirmVariant} disabled={busy}>
            {busy ? busyText : confirmText}
          </Button>
        </Actions>
      </Form>
    </Dialog>
  );
}
