import { useState, type FormEvent, type KeyboardEvent, type Ref } from 'react';
import styled from 'styled-components';
import { failureDescription } from '@campus/kit/api';
import { MentionTextArea, useMentionPicks } from '@campus/kit/mentions';
import { toast } from '@campus/kit/toast';
import { mediaMobile } from '@campus/kit/theme';
import { Checkbox } from '@campus/kit/ui';
import { TouchButton } from '../touch-button';
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

/**
 * 'Also post to my timeline' with a fingertip's hit area on a phone (44 x 44 px, issue 41): the
 * box itself is the 44 px square, drawn as an 18 px box in its middle, and the label row is as
 * tall. A pointer keeps the native 16 px box.
 */
const TimelineOption = styled.span`
  ${mediaMobile} {
    label {
      min-height: 44px;
    }
    input {
      appearance: none;
      position: relative;
      flex-shrink: 0;
      width: 44px;
      height: 44px;
      margin: 0 -10px 0 -13px;
      cursor: pointer;
    }
    input::before {
      content: '';
      position: absolute;
      inset: 13px;
      border: 2px solid ${({ theme }) => theme.colors.textMuted};
      border-radius: ${({ theme }) => theme.radius.sm};
      background: ${({ theme }) => theme.colors.surface};
    }
    input:checked::before {
      border-color: ${({ theme }) => theme.colors.primary};
      background: ${({ theme }) => theme.colors.primary};
    }
    input:checked::after {
      content: '';
      position: absolute;
      left: 19px;
      top: 15px;
      width: 6px;
      height: 11px;
      border: solid ${({ theme }) => theme.colors.onPrimary};
      border-width: 0 2px 2px 0;
      transform: rotate(45deg);
    }
    input:focus-visible {
      outline: none;
    }
    input:focus-visible::before {
      outline: 2px solid ${({ theme }) => theme.colors.focus};
      outline-offset: 2px;
    }
  }
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
          <TimelineOption>
            <Checkbox
              label="Also post to my timeline"
              checked={syncToTimeline}
              onChange={(event) => setSyncToTimeline(event.target.checked)}
            />
          </TimelineOption>
        )}
        <TouchButton type="submit" size="sm" disabled={!text || submitting}>
          {submitting ? 'Posting...' : isReply ? 'Post Reply' : 'Post Comment'}
        </TouchButton>
      </Row>
    </Form>
  );
}
