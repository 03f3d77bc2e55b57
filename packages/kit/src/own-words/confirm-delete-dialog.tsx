import { useState } from 'react';
import styled from 'styled-components';
import { toast } from '@campus/kit/toast';
import { Button, Dialog } from '@campus/kit/ui';
import { failureMessage } from './failure-message';

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(2)};
`;

export interface ConfirmDeleteDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** 'Delete post', 'Delete comment'. */
  title: string;
  /** The question (spec §2 for posts). */
  description: string;
  /** Deletes; on success the dialog closes, on failure the toast says `failure` (or the API's reason). */
  remove: () => Promise<void>;
  failure: string;
}

/** The confirmation before one deletes their own post or comment: Cancel or Delete. */
export function ConfirmDeleteDialog({
  open,
  onOpenChange,
  title,
  description,
  remove,
  failure,
}: ConfirmDeleteDialogProps) {
  const [deleting, setDeleting] = useState(false);
  const confirm = async () => {
    setDeleting(true);
    try {
      await remove();
      onOpenChange(false);
    } catch (error) {
      toast({
        title: 'Error',
        description: failureMessage(error, failure),
        variant: 'destructive',
      });
    } finally {
      setDeleting(false);
    }
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !deleting && onOpenChange(next)}
      title={title}
      description={description}
    >
      <Actions>
        <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={deleting}>
          Cancel
        </Button>
        <Button variant="destructive" onClick={() => void confirm()} disabled={deleting}>
          {deleting ? 'Deleting...' : 'Delete'}
        </Button>
      </Actions>
    </Dialog>
  );
}
