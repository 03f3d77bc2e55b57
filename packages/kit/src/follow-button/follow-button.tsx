import { useState } from 'react';
import styled from 'styled-components';
import { useSWRConfig } from 'swr';
import { callRoutes, type FollowToggleResponse } from '@campus/contracts';
import { callApi, failureDescription } from '@campus/kit/api';
import { useSession } from '@campus/kit/session';
import { mediaMobile } from '@campus/kit/theme';
import { toast } from '@campus/kit/toast';
import { Button } from '@campus/kit/ui';

export interface FollowButtonProps {
  /** The user to follow or unfollow. */
  userId: number;
  isFollowing: boolean;
  /**
   * The user's name, for the button's accessible name ('Follow Ada Lovelace'): a list of ten
   * people otherwise announces ten buttons called 'Follow'.
   */
  name?: string;
  /** Called with the server's answer after a successful toggle (the cache is refreshed already). */
  onToggled?: (result: FollowToggleResponse) => void;
  size?: 'sm' | 'md';
}

/**
 * As wide as its widest label ('Following'), so a row does not move when the label changes, and
 * 44 px tall on phones (a touch target, issue 41).
 */
const Toggle = styled(Button)`
  min-width: 6.5rem;
  ${mediaMobile} {
    min-height: 44px;
  }
`;

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
 *
 * Issue 41 (as Bluesky does): right after Follow the button reads 'Following' under the pointer,
 * not a red 'Unfollow'; it offers Unfollow on hover or focus only once the pointer has left it (or
 * the focus). It shows the server's answer at once, before the refetched lists pass it back.
 */
export function FollowButton({
  userId,
  isFollowing,
  name,
  onToggled,
  size = 'sm',
}: FollowButtonProps) {
  const { mutate } = useSWRConfig();
  const session = useSession();
  const [busy, setBusy] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  /** False right after this button followed, until the pointer or the focus leaves it. */
  const [armed, setArmed] = useState(true);
  /** The server's answer to this button's last toggle, until `isFollowing` changes. */
  const [answer, setAnswer] = useState<boolean | null>(null);
  const [given, setGiven] = useState(isFollowing);
  if (given !== isFollowing) {
    // The refetched lists passed the state on (or it changed elsewhere): that is the truth now.
    setGiven(isFollowing);
    setAnswer(null);
  }
  const following = answer ?? isFollowing;

  const toggle = async () => {
    setBusy(true);
    try {
      const result = await callApi(callRoutes.toggleFollow, { params: { id: userId } });
      toast({ title: 'Success', description: 'Follow status updated!' });
      setAnswer(result.following);
      if (result.following) setArmed(false);
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

  const warnUnfollow = following && armed && (hovered || focused);
  const label = following ? (warnUnfollow ? 'Unfollow' : 'Following') : 'Follow';
  return (
    <Toggle
      size={size}
      variant={following ? (warnUnfollow ? 'destructive' : 'secondary') : 'primary'}
      disabled={busy}
      aria-busy={busy || undefined}
      aria-label={name ? `${label} ${name}` : undefined}
      data-following={following}
      onClick={toggle}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => {
        setHovered(false);
        setArmed(true);
      }}
      onFocus={(event) => setFocused(isKeyboardFocus(event.currentTarget))}
      onBlur={() => {
        setFocused(false);
        setArmed(true);
      }}
    >
      {label}
    </Toggle>
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
