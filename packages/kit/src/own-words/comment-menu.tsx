import { useRef, useState, type RefObject } from 'react';
import { COMMENT_MAX_LENGTH, type Comment } from '@campus/contracts';
import { ReportDialog } from '@campus/kit/report';
import { useSession } from '@campus/kit/session';
import { toast } from '@campus/kit/toast';
import { ActionsMenu, type ActionItem } from './actions-menu';
import { useReturnFocus } from './return-focus';
import { ConfirmDeleteDialog } from './confirm-delete-dialog';
import { copyLink } from './copy-link';
import { EditTextDialog } from './lazy-dialogs';
import { deleteComment, editComment } from './own-words-requests';

export const DELETE_COMMENT_CONFIRMATION =
  'Are you sure you want to delete this comment? This action cannot be undone.';

export interface CommentMenuProps {
  postId: number;
  comment: Pick<Comment, 'id' | 'content' | 'author' | 'mentions'>;
  /** After the comment was edited or deleted: read the thread again. */
  onChanged: () => void;
  /** More actions on others' comments, before Report (Mute and Block: `useSafetyMenuItems`). */
  otherItems?: ActionItem[];
  /** The '⋯' button, for whoever draws `otherItems`' dialogs to give it focus back. */
  triggerRef?: RefObject<HTMLButtonElement | null>;
}

/** Where a comment is: its post's page, at the comment. */
export const commentLink = (postId: number, commentId: number) =>
  `/post/${postId}#comment-${commentId}`;

/**
 * The '⋯' menu of a comment or reply. The author's: Edit, Delete, Copy link (the API allows
 * nobody else). Anyone else's: `otherItems` (Mute, Block), Report, Copy link.
 */
export function CommentMenu({
  postId,
  comment,
  onChanged,
  otherItems = [],
  triggerRef,
}: CommentMenuProps) {
  const { user } = useSession();
  const ownTrigger = useRef<HTMLButtonElement>(null);
  const trigger = triggerRef ?? ownTrigger;
  const [dialog, setDialog] = useState<'edit' | 'delete' | 'report' | null>(null);
  useReturnFocus(trigger, dialog);
  const own = user?.id === comment.author.id;
  const close = (open: boolean) => {
    if (open) return;
    setDialog(null);
  };
  const copy: ActionItem = {
    key: 'copy-link',
    label: 'Copy link',
    onSelect: () => void copyLink(commentLink(postId, comment.id)),
  };
  const items: ActionItem[] = own
    ? [
        { key: 'edit', label: 'Edit', onSelect: () => setDialog('edit') },
        { key: 'delete', label: 'Delete', tone: 'danger', onSelect: () => setDialog('delete') },
        copy,
      ]
    : user
      ? [
          ...otherItems,
          { key: 'report', label: 'Report', tone: 'danger', onSelect: () => setDialog('report') },
          copy,
        ]
      : [copy];

  return (
    <>
      <ActionsMenu
        items={items}
        menuLabel={`More actions for the comment by ${comment.author.name}`}
        triggerRef={trigger}
      />
      {own && (
        <>
          <EditTextDialog
            open={dialog === 'edit'}
            onOpenChange={close}
            title="Edit comment"
            label="Comment"
            initial={comment.content}
            mentions={comment.mentions}
            maxLength={COMMENT_MAX_LENGTH}
            failure="Failed to edit comment. Please try again."
            save={async (content, mentions) => {
              await editComment(comment.id, content, mentions);
              toast({ title: 'Success', description: 'Comment updated.' });
              onChanged();
            }}
          />
          <ConfirmDeleteDialog
            open={dialog === 'delete'}
            onOpenChange={close}
            title="Delete comment"
            description={DELETE_COMMENT_CONFIRMATION}
            failure="Failed to delete comment. Please try again."
            remove={async () => {
              await deleteComment(comment.id);
              toast({ title: 'Success', description: 'Comment deleted.', duration: 2000 });
              onChanged();
            }}
          />
        </>
      )}
      {!own && user && (
        <ReportDialog
          open={dialog === 'report'}
          onOpenChange={close}
          targetType="comment"
          targetId={comment.id}
        />
      )}
    </>
  );
}
