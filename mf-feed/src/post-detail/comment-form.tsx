import { useState, type FormEvent, type KeyboardEvent, type Ref } from 'react';
import styled from 'styled-components';
import { failureDescription } from '@campus/kit/api';
import { MentionTextArea, useMentionPicks } from '@campus/kit/mentions';
import { toast } from '@campus/kit/toast';
import { Button, Checkbox } from '@campus/kit/ui';
import { createComment } from './post-detail-requests';

const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space(2)};
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space(2)};
`;

/** Ctrl+Enter (⌘+Enter on a Mac) in the text sends the form, as the form's button would. */
function sendOnModEnter(event: KeyboardEvent<HTMLTextAreaElement>) {
  if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.nativeEvent.isComposing) {
    return;
  }
  event.preventDefault();
  event.currentTarget.form?.requestSubmit();
}

/**
 * Spec §2/§5: a comment (with 'Also post to my timeline') or, with `parentId`, a reply (never sent
 * to the timeline). Submit is disabled while the trimmed text is empty; a failure keeps the text.
 * Ctrl/⌘+Enter in the text sends it (issue 41).
 */
export function CommentForm({
  postId,
  parentId,
  replyingTo,
  autoFocus,
  fieldRef,
  onPosted,
}: {
  postId: number;
  parentId?: number;
  replyingTo?: string;
  autoFocus?: boolean;
  /** The text field (the page's Comment button focuses it). */
  fieldRef?: Ref<HTMLTextAreaElement>;
  onPosted: (sharedToTimeline: boolean) => void;
}) {
  const isReply = parentId !== undefined;
  const [content, setContent] = useState('');
  const [syncToTimeline, setSyncToTimeline] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  // Members picked in the @ autocomplete (issue 40), sent as `mentions` while still in the text.
  const mentions = useMentionPicks();
  const text = content.trim();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text || submitting) return;
    setSubmitting(true);
    try {
      const shared = !isReply && syncToTimeline;
      const mentioned = mentions.idsIn(text);
      await createComment(postId, {
        content: text,
        ...(isReply ? { syncToTimeline: false, parentId } : { syncToTimeline: shared }),
        ...(mentioned.length > 0 ? { mentions: mentioned } : {}),
      });
      setContent('');
      mentions.reset();
      setSyncToTimeline(false);
      onPosted(shared);
    } catch (error) {
      toast({
        title: 'Error',
        description: failureDescription(error, 'Failed to post comment. Please try again.'),
        variant: 'destructive',
      });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form
      onSubmit={onSubmit}
      aria-label={isReply ? `Reply to ${replyingTo ?? 'comment'}` : 'Add a comment'}
    >
      <MentionTextArea
        label={isReply ? `Reply to ${replyingTo ?? 'comment'}` : 'Write a comment'}
        hideLabel
        placeholder={isReply ? 'Write a reply...' : 'Write a comment...'}
        rows={isReply ? 2 : 3}
        ref={fieldRef}
        dir="auto"
        value={content}
        autoFocus={autoFocus}
        onValueChange={setContent}
        onMention={mentions.add}
        onKeyDown={sendOnModEnter}
      />
      <Row>
        {isReply ? (
          <span />
        ) : (
          <Checkbox
            label="Also post to my timeline"
            checked={syncToTimeline}
            onChange={(event) => setSyncToTimeline(event.target.checked)}
          />
        )}
        <Button type="submit" size="sm" disabled={!text || submitting}>
          {submitting ? 'Posting...' : isReply ? 'Post Reply' : 'Post Comment'}
        </Button>
      </Row>
    </Form>
  );
}
