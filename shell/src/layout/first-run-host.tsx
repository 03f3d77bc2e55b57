import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useSession } from '@campus/kit/session';
import { firstRunPending, forgetFirstRun } from '../auth/first-run';
import { RemoteSlot } from '../composition/remote-slot';
import { FloatingRemoteHost } from './floating-remote-host';

/**
 * Issue 41: the first run (mf_profile's FirstRunDialog) over the feed, at the root route, while
 * this tab's sign-in was the member's first (auth/first-run.ts). Skip, Escape and Done end it for
 * good; focus then goes to the page's main content (the control that had it before the run, the
 * sign-in form's button, is gone).
 */
export function FirstRunHost() {
  const { user } = useSession();
  const { pathname } = useLocation();
  const [pending, setPending] = useState(() => firstRunPending(user?.id));
  const ended = useRef(false);

  useEffect(() => {
    if (!ended.current) return;
    ended.current = false;
    const active = document.activeElement;
    if (!active || active === document.body) document.getElementById('main-content')?.focus();
  }, [pending]);

  if (!pending || pathname !== '/') return null;
  return (
    <FloatingRemoteHost $at="top">
      <RemoteSlot
        remote="mf_profile"
        exposed="FirstRunDialog"
        what="the first run"
        compact
        fallback={null}
        props={{
          onClose: () => {
            forgetFirstRun();
            ended.current = true;
            setPending(false);
          },
        }}
      />
    </FloatingRemoteHost>
  );
}
