import { useCallback, useRef, useState } from 'react';
import { ApiError, failureDescription } from '@campus/kit/api';
import { emitAppEvent } from '@campus/kit/events';
import { toast } from '@campus/kit/toast';
import { undoRepost, type UndoneRepost } from './post-requests';

export interface RepostState {
  reposted: boolean;
  repostsCount: number;
}

export interface UsePostRepostOptions {
  /** Replaces the request (default: `DELETE /api/posts/{id}/repost`). */
  undoRequest?: (postId: number) => Promise<UndoneRepost>;
  /** After the server withdrew the viewer's repost. */
  onUndone?: () => void;
}

/** Shown after the viewer withdrew their repost (the spec has no words for it; ours). */
export const REPOST_UNDONE_TEXT = 'Your repost was removed.';

/** A refusal the member can act on (404: no plain repost to withdraw) says why; else a retry. */
function undoFailure(error: unknown): string {
  const fallback = 'Failed to undo the repost. Please try again.';
  if (error instanceof ApiError && error.status === 404) return error.serverMessage ?? fallback;
  return failureDescription(error, fallback);
}

/**
 * Whether the viewer reposted a post, and how many people did: from the post given (fresh data
 * from the server replaces it), moved by a repost made here (`markReposted`) or withdrawn here
 * (`undo`, with the destructive toast and nothing changed when the server refuses; on success
 * the withdrawn repost is announced as a deleted post).
 */
export function usePostRepost(
  post: { id: number; isReposted: boolean; repostsCount: number },
  { undoRequest = undoRepost, onUndone }: UsePostRepostOptions = {},
) {
  const fromProps: RepostState = { reposted: post.isReposted, repostsCount: post.repostsCount };
  const [source, setSource] = useState(fromProps);
  const [state, setState] = useState(fromProps);
  const [pending, setPending] = useState(false);
  const inFlight = useRef(false);

  if (source.reposted !== fromProps.reposted || source.repostsCount !== fromProps.repostsCount) {
    setSource(fromProps);
    setState(fromProps);
  }

  const markReposted = useCallback(() => {
    setState((current) =>
      current.reposted ? current : { reposted: true, repostsCount: current.repostsCount + 1 },
    );
  }, []);

  const undo = useCallback(async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setPending(true);
    try {
      const result = await undoRequest(post.id);
      setState({ reposted: false, repostsCount: result.repostsCount });
      toast({ title: 'Success', description: REPOST_UNDONE_TEXT });
      // The repost was a post on the member's timeline: every list showing it drops it.
      emitAppEvent('postDeleted', { postId: result.repostPostId });
      onUndone?.();
    } catch (error) {
      toast({
        title: 'Error',
        description: undoFailure(error),
        variant: 'destructive',
      });
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  }, [undoRequest, post.id, onUndone]);

  return { ...state, pending, markReposted, undo };
}
