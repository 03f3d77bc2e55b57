import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import { callRoutes, type SessionInfo } from '@campus/contracts';
import { callApi } from '@campus/kit/api';
import { keys, useCallData } from '@campus/kit/data';
import { TimeAgo } from '@campus/kit/format';
import { useSession } from '@campus/kit/session';
import { toast } from '@campus/kit/toast';
import { Badge, Button, Dialog } from '@campus/kit/ui';

const List = styled.ul`
  width: 100%;
  margin: 0;
  padding: 0;
  list-style: none;
  display: grid;
  gap: ${({ theme }) => theme.space(2)};
`;

const Row = styled.li`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => theme.space(3)};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.md};

  h3 {
    margin: 0;
    font-size: 0.9375rem;
    display: flex;
    align-items: center;
    gap: ${({ theme }) => theme.space(2)};
  }
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(2)};
`;

/**
 * Settings, "Where you're signed in": every open session of the member (device, when it signed
 * in, when it was last active) with "Sign out" for each, after a confirmation. Signing this
 * device out signs the member out here; another device is told why when it next asks the API.
 */
export function SessionsList({ headingId }: { headingId: string }) {
  const session = useSession();
  const navigate = useNavigate();
  const { data: sessions, error, mutate } = useCallData(keys.sessions());
  const [confirming, setConfirming] = useState<SessionInfo | null>(null);
  const [ending, setEnding] = useState(false);
  const focusListNext = useRef(false);
  const listRef = useRef<HTMLUListElement>(null);

  // The row whose button had focus is gone: once the dialog closes, focus goes to the list
  // rather than to the page.
  useEffect(() => {
    if (confirming || !focusListNext.current) return;
    focusListNext.current = false;
    listRef.current?.focus();
  }, [confirming]);

  const signOut = async () => {
    if (!confirming) return;
    setEnding(true);
    try {
      await callApi(callRoutes.endSession, { params: { id: confirming.id } });
    } catch {
      setEnding(false);
      toast({
        title: 'Error',
        description: 'Failed to sign out that device. Please try again.',
        variant: 'destructive',
      });
      return;
    }
    setEnding(false);
    if (confirming.current) {
      setConfirming(null);
      navigate('/', { replace: true });
      session.logout();
      toast({ title: 'Signed out', description: 'You have signed out of this device.' });
      return;
    }
    const { device } = confirming;
    await mutate((list) => list?.filter((s) => s.id !== confirming.id), { revalidate: true });
    focusListNext.current = true;
    setConfirming(null);
    toast({ title: 'Device signed out', description: `${device} has been signed out.` });
  };

  if (error) {
    // Retry rather than a reload of the whole page (issue 41).
    return (
      <>
        <p role="alert">Your devices could not be loaded.</p>
        <Button variant="secondary" size="sm" onClick={() => void mutate()}>
          Retry
        </Button>
      </>
    );
  }
  if (!sessions) return <p role="status">Loading your devices...</p>;

  return (
    <>
      <List ref={listRef} tabIndex={-1} aria-labelledby={headingId}>
        {sessions.map((item) => (
          <Row key={item.id}>
            <div>
              <h3>
                {item.device}
                {item.current && <Badge>This device</Badge>}
              </h3>
              <p>
                Signed in <TimeAgo date={item.createdAt} /> · last active{' '}
                <TimeAgo date={item.lastSeenAt} />
              </p>
            </div>
            <Button
              variant="secondary"
              size="sm"
              aria-label={`Sign out ${item.device}${item.current ? ' (this device)' : ''}`}
              onClick={() => setConfirming(item)}
            >
              Sign out
            </Button>
          </Row>
        ))}
      </List>
      <Dialog
        open={confirming !== null}
        onOpenChange={(open) => !open && !ending && setConfirming(null)}
        title={confirming?.current ? 'Sign out of this device?' : 'Sign out this device?'}
        description={
          confirming?.current
            ? 'You will need to sign in again here.'
            : `${confirming?.device ?? 'That device'} will need to sign in again.`
        }
      >
        <Actions>
          <Button variant="secondary" onClick={() => setConfirming(null)} disabled={ending}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={() => void signOut()} disabled={ending}>
            {ending ? 'Signing out...' : 'Sign out'}
          </Button>
        </Actions>
      </Dialog>
    </>
  );
}
