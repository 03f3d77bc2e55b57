import { useState } from 'react';
import type { FollowToggleResponse } from '@campus/contracts';
import { apiRequest } from '@campus/kit/api';
import { toast } from '@campus/kit/toast';
import { Button } from '@campus/kit/ui';

/**
 * Spec §2/§4: one toggle for follow and unfollow. When following it reads 'Following' and turns
 * into 'Unfollow' on hover (and on keyboard focus).
 */
export function FollowButton({
  userId,
  isFollowing,
  onChanged,
}: {
  userId: number;
  isFollowing: boolean;
  onChanged: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [hovered, setHovered] = useState(false);

  const toggle = async () => {
    setBusy(true);
    try {
      await apiRequest<FollowToggleResponse>(`/api/users/${userId}/follow`, { method: 'POST' });
      toast({ title: 'Success', description: 'Follow status updated!' });
      onChanged();
    } catch {
      toast({
        title: 'Error',
        description: 'Failed to update follow status.',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button
      size="sm"
      variant={isFollowing ? (hovered ? 'destructive' : 'secondary') : 'primary'}
      disabled={busy}
      onClick={toggle}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setHovered(true)}
      onBlur={() => setHovered(false)}
    >
      {isFollowing ? (hovered ? 'Unfollow' : 'Following') : 'Follow'}
    </Button>
  );
}
