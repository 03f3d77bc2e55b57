import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { REPOST_COMMENT_MAX_LENGTH, type Post } from '@campus/contracts';
import { failureDescription } from '@campus/kit/api';
import { toast } from '@campus/kit/toast';
import { Button, Dialog, TextArea } from '@campus/kit/ui';
import { repostPost } from './post-requests';

const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(2)};
`;

export interface RepostDialogProps {
  /** The post to repost (its id and author are all the dialog needs). */
  post: Pick<Post, 'id' | 'author'>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After the server created the repost. */
  onReposted?: (repost: Post) => void;
  /** Replaces the request (default: `POST /api/posts/{id}/repost`). */
  request?: (postId: number, comment?: string) => Promise<Post>;
}

/**
 * Spec §2 repost dialog: an optional comment (at most 280 characters, with a live n/280 counter),
 * then the success or failure toast of spec §8. Apps use `RepostDialog` (repost-dialog.tsx),
 * which fetches this code the first time the dialog opens.
 */
export function RepostDialogPanel({
  post,
  open,
  onOpenChange,
  onReposted,
  request = repostPost,
}: RepostDialogProps) {
  const [comment, setComment] = useState('');
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    setSubmitting(true);
    try {
      const repost = await request(post.id, comment);
      setComment('');
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
      <Form onSubmit={onSubmit}>
        <TextArea
          label="Add a comment (optional)"
          placeholder="Add a comment..."
          rows={3}
          maxLength={REPOST_COMMENT_MAX_LENGTH}
          value={comment}
          onChange={(event) => setComment(event.target.value)}
        />
        <Actions>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={submitting}>
            {submitting ? 'Reposting...' : 'Repost'}
          </Button>
        </Actions>
      </Form>
    </Dialog>
  );
}
