import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { ApiError } from '@campus/kit/api';
import { Button, Dialog, TextArea } from '@campus/kit/ui';

const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(2)};
`;

/**
 * A dialog that asks for a reason before an action (reject an application, suspend a member).
 * `onConfirm` does the request; its failure keeps the dialog open with the server's message.
 */
export function ReasonDialog({
  open,
  onOpenChange,
  title,
  description,
  label,
  confirmText,
  required,
  maxLength,
  onConfirm,
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
    if (required && !trimmed) {
      setError('Reason is required');
      return;
    }
    setBusy(true);
    try {
      await onConfirm(trimmed);
      close();
    } catch (failure) {
      setError(
        (failure instanceof ApiError && failure.serverMessage) ||
          'Something went wrong. Please try again.',
      );
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
          <Button type="submit" variant="destructive" disabled={busy}>
            {confirmText}
          </Button>
        </Actions>
      </Form>
    </Dialog>
  );
}
