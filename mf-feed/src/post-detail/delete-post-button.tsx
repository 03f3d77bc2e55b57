import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import { useSWRConfig } from 'swr';
import { ApiError } from '@campus/kit/api';
import { keys } from '@campus/kit/data';
import { emitAppEvent } from '@campus/kit/events';
import { toast } from '@campus/kit/toast';
import { Dialog } from '@campus/kit/ui';
import { TouchButton } from '../touch-button';
import { isPostKey } from '../post-cache';
import { deletePost } from './post-detail-requests';

/** Spec §9: the delete success toast lasts 2 seconds. */
const SUCCESS_TOAST_MS = 2000;

export const DELETE_CONFIRMATION =
  'Are you sure you want to delete this post? This action cannot be undone.';

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(2)};
`;

type Mutate = ReturnType<typeof useSWRConfig>['mutate'];

/**
 * Discards every cached post and refetches what is shown. Revalidating (rather than only clearing)
 * also drops SWR's in-flight dedupe entries, whose older answers would otherwise be discarded as
 * predating this change and leave a remounted feed loading for good.
 */
async function refreshPosts(mutate: Mutate, postId: number): Promise<void> {
  const deleted = keys.post(postId);
  await mutate(deleted, undefined, { revalidate: false });
  await mutate(
    (key: unknown) =>
      isPostKey(key) && !(Array.isArray(key) && key.length === 2 && key[1] === deleted[1]),
    undefined,
  );
}

/**
 * Spec §2/§4: the author's delete control. After confirmation the post is deleted, cached posts
 * are discarded, 'postDeleted' fires and the reader goes back to the feed.
 */
export function DeletePostButton({ postId }: { postId: number }) {
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const [open, setOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const confirm = async () => {
    setDeleting(true);
    try {
      await deletePost(postId);
    } catch (error) {
      toast({
        title: 'Error',
        description:
          (error instanceof ApiError && error.serverMessage) ||
          'Failed to delete post. Please try again.',
        variant: 'destructive',
      });
      setDeleting(false);
      return;
    }
    // The post is gone: say so at once. The cache refresh resolves only when every shown list
    // has refetched, which on a busy machine outlasted the reader's patience for the toast.
    toast({
      title: 'Success',
      description: 'Post deleted successfully!',
      duration: SUCCESS_TOAST_MS,
    });
    setOpen(false);
    emitAppEvent('postDeleted', { postId });
    void navigate('/', { replace: true });
    void refreshPosts(mutate, postId);
  };

  return (
    <>
      <TouchButton variant="ghost" size="sm" onClick={() => setOpen(true)}>
        Delete
      </TouchButton>
      <Dialog
        open={open}
        onOpenChange={(next) => !deleting && setOpen(next)}
        title="Delete post"
        description={DELETE_CONFIRMATION}
      >
        <Actions>
          <TouchButton variant="secondary" onClick={() => setOpen(false)} disabled={deleting}>
            Cancel
          </TouchButton>
          <TouchButton variant="destructive" onClick={() => void confirm()} disabled={deleting}>
            {deleting ? 'Deleting...' : 'Delete'}
          </TouchButton>
        </Actions>
      </Dialog>
    </>
  );
}
