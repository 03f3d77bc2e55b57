import { useCallback, useRef, useState } from 'react';
import type { LikeResponse } from '@campus/contracts';
import { failureDescription } from '@campus/kit/api';
import { toast } from '@campus/kit/toast';
import { togglePostLike } from './post-requests';

export interface LikeState {
  liked: boolean;
  likesCount: number;
}

export interface UsePostLikeOptions {
  /** Replaces the request (default: `POST /api/posts/{id}/like`). */
  request?: (postId: number) => Promise<LikeResponse>;
  /** After the server confirmed the toggle: update a cache here if you keep one. */
  onSettled?: (result: LikeResponse) => void;
}

/**
 * A like toggle that answers at once (spec §4: the count moves by one) and settles on the server's
 * `{ liked, likesCount }`; on failure it rolls back and shows the destructive toast of spec §8.
 * When the post given changes (fresh data from the server), the shown state follows it.
 */
export function usePostLike(
  post: { id: number; isLiked: boolean; likesCount: number },
  { request = togglePostLike, onSettled }: UsePostLikeOptions = {},
) {
  const fromProps: LikeState = { liked: post.isLiked, likesCount: post.likesCount };
  const [source, setSource] = useState(fromProps);
  const [state, setState] = useState(fromProps);
  const [pending, setPending] = useState(false);
  const inFlight = useRef(false);

  if (source.liked !== fromProps.liked || source.likesCount !== fromProps.likesCount) {
    setSource(fromProps);
    setState(fromProps);
  }

  const toggle = useCallback(async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setPending(true);
    const before = state;
    setState({
      liked: !before.liked,
      likesCount: Math.max(0, before.likesCount + (before.liked ? -1 : 1)),
    });
    try {
      const result = await request(post.id);
      setState({ liked: result.liked, likesCount: result.likesCount });
      onSettled?.(result);
    } catch (error) {
      setState(before);
      toast({
        title: 'Error',
        description: failureDescription(error, 'Failed to update like. Please try again.'),
        variant: 'destructive',
      });
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  }, [state, request, post.id, onSettled]);

  return { ...state, pending, toggle };
}
