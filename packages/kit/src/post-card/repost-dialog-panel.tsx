import { useState, type ClipboardEvent, type FormEvent } from 'react';
import styled from 'styled-components';
import { REPOST_COMMENT_MAX_LENGTH, type AttachImageRequest, type Post } from '@campus/contracts';
import { failureDescription } from '@campus/kit/api';
import {
  ImageAttachments,
  imageFilesOf,
  useImageAttachments,
  type UploadImage,
} from '@campus/kit/media';
import { isOverLimit, MentionTextArea, useMentionPicks } from '@campus/kit/mentions';
import { toast } from '@campus/kit/toast';
import { Button, Dialog } from '@campus/kit/ui';
import { repostPost } from './post-requests';

const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
`;

const Actions = styled.div`
  display: flex;
  align-items: center;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(2)};
`;

const Waiting = styled.p`
  margin: 0 auto 0 0;
  font-size: 0.8125rem;
  color: ${({ theme }) => theme.colors.textMuted};
`;

export interface RepostDialogProps {
  /** The post to repost (its id and author are all the dialog needs). */
  post: Pick<Post, 'id' | 'author'>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After the server created the repost. */
  onReposted?: (repost: Post) => void;
  /**
   * Replaces the request (default: `POST /api/posts/{id}/repost`); `images`: a quote's (issue 39);
   * `mentions`: the members picked in its comment (issue 40).
   */
  request?: (
    postId: number,
    comment?: string,
    images?: readonly AttachImageRequest[],
    mentions?: readonly number[],
  ) => Promise<Post>;
  /** Replaces `POST /api/media` for the quote's images (tests). */
  upload?: UploadImage;
}

/** What the Repost button waits for: images still uploading, a failed one, a quote's text. */
function waitingText(
  { uploading, failed, items }: { uploading: boolean; failed: boolean; items: readonly unknown[] },
  comment: string,
): string {
  if (uploading) return 'Uploading images…';
  if (failed) return 'Retry or remove the image that failed.';
  if (items.length > 0 && !comment.trim()) return 'Add a comment to quote with images.';
  return '';
}

/**
 * Spec §2 repost dialog: an optional comment (at most 280 characters, with a live n/280 counter;
 * a longer paste is kept and warned about, and Repost waits until it is shortened),
 * then the success or failure toast of spec §8. Apps use `RepostDialog` (repost-dialog.tsx),
 * which fetches this code the first time the dialog opens.
 */
export function RepostDialogPanel({
  post,
  open,
  onOpenChange,
  onReposted,
  request = repostPost,
  upload,
}: RepostDialogProps) {
  const [comment, setComment] = useState('');
  const [submitting, setSubmitting] = useState(false);
  // The images of a quote (issue 39): a quote is a post of its own, with its comment.
  const attachments = useImageAttachments();
  // Members picked in the @ autocomplete of the comment (issue 40).
  const mentions = useMentionPicks();
  const waiting = waitingText(attachments, comment);
  // A paste over 280 characters is kept whole: the counter warns and Repost waits (issue 41).
  const tooLong = isOverLimit(comment, REPOST_COMMENT_MAX_LENGTH);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting || waiting || tooLong) return;
    setSubmitting(true);
    try {
      const mentioned = mentions.idsIn(comment);
      const repost = await (mentioned.length > 0
        ? request(post.id, comment, attachments.images, mentioned)
        : request(post.id, comment, attachments.images));
      setComment('');
      attachments.reset();
      mentions.reset();
      onOpenChange(false);
      toast({ title: 'Success', description: 'Post reposted successfully!' });
      onReposted?.(repost);
    } catch (error) {
      toast({
        title: 'Error',
        description: failureDescription(error, 'Failed to repost. Please try again.'),
        variant: 'destructive',
      });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Repost"
      description={`Share ${post.author.name}'s post with your followers.`}
    >
      <Form
        onSubmit={onSubmit}
        onPaste={(event: ClipboardEvent) => {
          const files = imageFilesOf(event.clipboardData);
          if (files.length === 0 || submitting) return;
          if (!event.clipboardData.getData('text/plain')) event.preventDefault();
          attachments.addFiles(files);
        }}
      >
        <MentionTextArea
          label="Add a comment (optional)"
          placeholder="Add a comment..."
          rows={3}
          limit={REPOST_COMMENT_MAX_LENGTH}
          value={comment}
          onValueChange={setComment}
          onMention={mentions.add}
        />
        <ImageAttachments attachments={attachments} disabled={submitting} upload={upload} />
        <Actions>
          <Waiting role="status">{waiting}</Waiting>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={submitting || tooLong || Boolean(waiting)}>
            {submitting ? 'Reposting...' : 'Repost'}
          </Button>
        </Actions>
      </Form>
    </Dialog>
  );
}
