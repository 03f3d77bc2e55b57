import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import { useSession } from '@campus/kit/session';
import { toast } from '@campus/kit/toast';
import { Button, Dialog } from '@campus/kit/ui';
import { signOutEverywhere } from './account-requests';

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(2)};
`;

/**
 * Sign out of all devices: every token stops working, this device's too, so it signs out here.
 * It asks first (issue 41; the dialog takes the focus and gives it back on Cancel), and the
 * sign-in page then says why the member is there (the navigation's `signedOut: 'everywhere'`,
 * read by the shell's sign-in page).
 */
export function SignOutEverywhereButton() {
  const session = useSession();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  const signOut = async () => {
    setBusy(true);
    try {
      await signOutEverywhere();
    } catch {
      setBusy(false);
      toast({
        title: 'Error',
        description: 'Failed to sign out of all devices. Please try again.',
        variant: 'destructive',
      });
      return;
    }
    navigate('/', { replace: true, state: { signedOut: 'everywhere' } });
    session.logout();
    toast({
      title: 'Signed out of all devices',
      description: 'Sign in again on the devices you use.',
    });
  };

  return (
    <>
      <Button variant="secondary" onClick={() => setConfirming(true)} disabled={busy}>
        {busy ? 'Signing out...' : 'Sign out of all devices'}
      </Button>
      <Dialog
        open={confirming}
        onOpenChange={(open) => !busy && setConfirming(open)}
        title="Sign out of all devices?"
        description="Every device signed in to your account, this one included, will have to sign in again."
      >
        <Actions>
          <Button variant="secondary" onClick={() => setConfirming(false)} disabled={busy}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={signOut} disabled={busy}>
            {busy ? 'Signing out...' : 'Sign out everywhere'}
          </Button>
        </Actions>
      </Dialog>
    </>
  );
}
