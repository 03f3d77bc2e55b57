import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSession } from '@campus/kit/session';
import { toast } from '@campus/kit/toast';
import { Button } from '@campus/kit/ui';
import { signOutEverywhere } from './account-requests';

/** Sign out of all devices: every token stops working, this device's too, so it signs out here. */
export function SignOutEverywhereButton() {
  const session = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  const onClick = async () => {
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
    navigate('/', { replace: true });
    session.logout();
    toast({
      title: 'Signed out of all devices',
      description: 'Sign in again on the devices you use.',
    });
  };

  return (
    <Button variant="secondary" onClick={onClick} disabled={busy}>
      {busy ? 'Signing out...' : 'Sign out of all devices'}
    </Button>
  );
}
