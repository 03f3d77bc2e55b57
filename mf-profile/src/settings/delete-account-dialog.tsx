import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import { ApiError } from '@campus/kit/api';
import { useSession } from '@campus/kit/session';
import { toast } from '@campus/kit/toast';
import { Button, Dialog, TextField } from '@campus/kit/ui';
import { deleteAccount } from './account-requests';

/** What the member types to show they mean it. */
export const DELETE_CONFIRMATION = 'DELETE';

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
 * Delete account: the password (so a borrowed, signed-in device cannot do it) and DELETE typed
 * out; afterwards the member is signed out, on the sign-in screen, with a toast.
 */
export function DeleteAccountDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const session = useSession();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [passwordError, setPasswordError] = useState<string>();
  const [deleting, setDeleting] = useState(false);
  const ready = password.length > 0 && confirmation === DELETE_CONFIRMATION && !deleting;

  const close = (next: boolean) => {
    if (deleting) return;
    if (!next) {
      setPassword('');
      setConfirmation('');
      setPasswordError(undefined);
    }
    onOpenChange(next);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const userId = session.user?.id;
    if (!ready || userId === undefined) return;
    setDeleting(true);
    setPasswordError(undefined);
    try {
      await deleteAccount(userId, password);
    } catch (error) {
      setDeleting(false);
      const message =
        (error instanceof ApiError && error.serverMessage) ||
        'Failed to delete your account. Please try again.';
      if (error instanceof ApiError && error.status === 400) setPasswordError(message);
      else toast({ title: 'Error', description: message, variant: 'destructive' });
      return;
    }
    navigate('/', { replace: true });
    session.logout();
    toast({
      title: 'Account deleted',
      description: 'Your account and everything you shared have been removed.',
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Delete account"
      description="This removes your profile, posts, comments, likes, reposts, follows and notifications for good. It cannot be undone."
    >
      <Form noValidate onSubmit={onSubmit}>
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          error={passwordError}
          onChange={(event) => setPassword(event.target.value)}
        />
        <TextField
          label={`Type ${DELETE_CONFIRMATION} to confirm`}
          autoComplete="off"
          spellCheck={false}
          value={confirmation}
          onChange={(event) => setConfirmation(event.target.value)}
        />
        <Actions>
          <Button variant="secondary" onClick={() => close(false)} disabled={deleting}>
            Cancel
          </Button>
          <Button type="submit" variant="destructive" disabled={!ready}>
            {deleting ? 'Deleting...' : 'Delete my account'}
          </Button>
        </Actions>
      </Form>
    </Dialog>
  );
}
