import { useState } from 'react';
import { useSWRConfig } from 'swr';
import { callRoutes, type FollowToggleResponse } from '@campus/contracts';
import { callApi, failureDescription } from '@campus/kit/api';
import { useSession } from '@campus/kit/session';
import { toast } from '@campus/kit/toast';
import { Button } from '@campus/kit/ui';

export interface FollowButtonProps {
  /** The user to follow or unfollow. */
  userId: number;
  isFollowing: boolean;
  /** Called with the server's answer after a successful toggle (the cache is refreshed already). */
  onToggled?: (result: FollowToggleResponse) => void;
  size?: 'sm' | 'md';
}

/**
 * Cached reads that a follow changes: both users' profiles and lists, and every following /
 * followers list (any of them may show this user with its isFollowing flag).
 */
function touchesUsers(key: unknown, ids: readonly number[]): boolean {
  if (!Array.isArray(key) || key[0] !== '/api/users') return false;
  return ids.includes(key[1] as number) || key[2] === 'following' || key[2] === 'followers';
}

/**
 * Spec §2/§4: one toggle for follow and unfollow. While following it reads 'Following' and turns
 * into 'Unfollow' on hover or keyboard focus. Success: toast 'Success' / 'Follow status updated!'
 * and the affected profiles and lists are refetched; failure: 'Error' / 'Failed to update follow status.'.
 */
export function FollowButton({ userId, isFollowing, onToggled, size = 'sm' }: FollowButtonProps) {
  const { mutate } = useSWRConfig();
  const session = useSession();
  const [busy, setBusy] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);

  const toggle = async () => {
    setBusy(true);
    try {
      const result = await callApi(callRoutes.toggleFollow, { params: { id: userId } });
      toast({ title: 'Success', description: 'Follow status updated!' });
      const ids = session.user ? [userId, session.user.id] : [userId];
      void mutate((key) => touchesUsers(key, ids));
      onToggled?.(result);
    } catch (error) {
      toast({
        title: 'Error',
        description: failureDescription(error, 'Failed to update follow status.'),
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  const warnUnfollow = isFollowing && (hovered || focused);
  return (
    <Button
      size={size}
      variant={isFollowing ? (warnUnfollow ? 'destructive' : 'secondary') : 'primary'}
      disabled={busy}
      aria-busy={busy || undefined}
      data-following={isFollowing}
      onClick={toggle}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={(event) => setFocused(isKeyboardFocus(event.currentTarget))}
      onBlur={() => setFocused(false)}
    >
      {isFollowing ? (warnUnfollow ? 'Unfollow' : 'Following') : 'Follow'}
    </Button>
  );
}

/** A mouse click focuses the button too; only keyboard focus should stand in for hover. */
function isKeyboardFocus(element: HTMLElement): boolean {
  try {
    return element.matches(':focus-visible');
  } catch {
    return true; // engines without :focus-visible: treat focus like hover
  }
}
