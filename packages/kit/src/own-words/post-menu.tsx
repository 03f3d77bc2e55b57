import { useRef, useState, type RefObject } from 'react';
import { editablePostText, type Post } from '@campus/contracts';
import { emitAppEvent } from '@campus/kit/events';
import { ReportDialog } from '@campus/kit/report';
import { useSession } from '@campus/kit/session';
import { toast } from '@campus/kit/toast';
import { ActionsMenu, type ActionItem } from './actions-menu';
import { useReturnFocus } from './return-focus';
import { ConfirmDeleteDialog } from './confirm-delete-dialog';
import { copyLink } from './copy-link';
import { EditTextDialog } from './lazy-dialogs';
import { deletePost, editPost } from './own-words-requests';

/** Spec §2: the confirmation before a post is deleted. */
export const DELETE_POST_CONFIRMATION =
  'Are you sure you want to delete this post? This action cannot be undone.';
/** Spec §9: the delete success toast lasts 2 seconds. */
const DELETE_TOAST_MS = 2000;

export interface PostMenuProps {
  post: Omit<Post, 'originalPost'>;
  /** After the post was deleted ('postDeleted' has fired): the post page leaves, say. */
  onDeleted?: () => void;
  /** After the post was edited ('postEdited' has fired), with the post as the API answered it. */
  onEdited?: (post: Post) => void;
  /** More actions on others' posts, before Report (Mute and Block: `useSafetyMenuItems`). */
  otherItems?: ActionItem[];
  /** The '⋯' button, for whoever draws `otherItems`' dialogs to give it focus back. */
  triggerRef?: RefObject<HTMLButtonElement | null>;
}

/**
 * The '⋯' menu of a post, wherever it is shown (feed, profile, post page, quotes). The author's:
 * Edit (when the post has text of its own: `editablePostText`), Delete, Copy link. Anyone
 * else's: `otherItems` (Mute, Block), Report post, Copy link. Signed out: Copy link. Whether the post
 * is the viewer's own is the API's word (`canDelete`).
 */
export function PostMenu({
  post,
  onDeleted,
  onEdited,
  otherItems = [],
  triggerRef,
}: PostMenuProps) {
  const { user } = useSession();
  const ownTrigger = useRef<HTMLButtonElement>(null);
  const trigger = triggerRef ?? ownTrigger;
  const [dialog, setDialog] = useState<'edit' | 'delete' | 'report' | null>(null);
  useReturnFocus(trigger, dialog);
  const own = post.canDelete;
  const editable = own ? editablePostText(post) : null;
  const link = `/post/${post.id}`;
  const close = (open: boolean) => {
    if (open) return;
    setDialog(null);
  };
  const copy: ActionItem = {
    key: 'copy-link',
    label: 'Copy link',
    onSelect: () => void copyLink(link),
  };
  const items: ActionItem[] = own
    ? [
        ...(editable ? [{ key: 'edit', label: 'Edit', onSelect: () => setDialog('edit') }] : []),
        { key: 'delete', label: 'Delete', tone: 'danger', onSelect: () => setDialog('delete') },
        copy,
      ]
    : user
      ? [
          ...otherItems,
          {
            key: 'report',
            label: 'Report post',
            tone: 'danger',
            onSelect: () => setDialog('report'),
          },
          copy,
        ]
      : [copy];

  return (
    <>
      <ActionsMenu items={items} menuLabel="More actions for this post" triggerRef={trigger} />
      {editable && (
        <EditTextDialog
          open={dialog === 'edit'}
          onOpenChange={close}
          title="Edit post"
          label={editable.field === 'content' ? 'Post text' : 'Your comment'}
          initial={(editable.field === 'content' ? post.content : post.repostComment) ?? ''}
          mentions={post.mentions}
          maxLength={editable.max}
          failure="Failed to edit post. Please try again."
          save={async (content, mentions) => {
            const edited = await editPost(post.id, content, mentions);
            toast({ title: 'Success', description: 'Post updated.' });
            emitAppEvent('postEdited', { postId: post.id });
            onEdited?.(edited);
          }}
        />
      )}
      {own && (
        <ConfirmDeleteDialog
          open={dialog === 'delete'}
          onOpenChange={close}
          title="Delete post"
          description={DELETE_POST_CONFIRMATION}
          failure="Failed to delete post. Please try again."
          remove={async () => {
            await deletePost(post.id);
            toast({
              title: 'Success',
              description: 'Post deleted successfully!',
              duration: DELETE_TOAST_MS,
            });
            emitAppEvent('postDeleted', { postId: post.id });
            onDeleted?.();
          }}
        />
      )}
      {!own && user && (
        <ReportDialog
          open={dialog === 'report'}
          onOpenChange={close}
          targetType="post"
          targetId={post.id}
        />
      )}
    </>
  );
}
