import { useState, type ClipboardEvent, type DragEvent, type FormEvent } from 'react';
import styled from 'styled-components';
import { useSWRConfig } from 'swr';
import { callRoutes, POST_MAX_LENGTH, type CreatePostRequest } from '@campus/contracts';
import { callApi, failureDescription } from '@campus/kit/api';
import { emitAppEvent } from '@campus/kit/events';
import {
  ImageAttachments,
  imageFilesOf,
  useImageAttachments,
  type UploadImage,
} from '@campus/kit/media';
import { isOverLimit, MentionTextArea, useMentionPicks } from '@campus/kit/mentions';
import { toast } from '@campus/kit/toast';
import { Button, Checkbox, Dialog } from '@campus/kit/ui';
import { isPostKey } from '../post-cache';

/** Spec §9: success toasts for posting last 2 seconds; active posts refetch 20 ms after. */
const SUCCESS_TOAST_MS = 2000;
const REFETCH_DELAY_MS = 20;

const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
`;

const Options = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(2)};
`;

const Footer = styled.div`
  display: flex;
  align-items: center;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(3)};
`;

const Waiting = styled.p`
  margin: 0;
  font-size: 0.8125rem;
  color: ${({ theme }) => theme.colors.textMuted};
`;

/** What the Post button waits for, said beside it. */
function waitingText(uploading: boolean, failed: boolean): string {
  if (uploading) return 'Uploading images…';
  if (failed) return 'Retry or remove the image that failed.';
  return '';
}

/** Spec §2 "Post creation dialog", opened by the shell's Post and floating buttons. */
export default function PostComposer({
  open,
  onOpenChange,
  upload,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Replaces `POST /api/media` (tests). */
  upload?: UploadImage;
}) {
  const { mutate } = useSWRConfig();
  const [content, setContent] = useState('');
  const [syncToProfile, setSyncToProfile] = useState(true);
  const [isJdTagged, setIsJdTagged] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const attachments = useImageAttachments();
  // Members picked in the @ autocomplete (issue 40), sent as `mentions` while still in the text.
  const mentions = useMentionPicks();
  const text = content.trim();
  const waiting = waitingText(attachments.uploading, attachments.failed);
  // The API refuses a post over its limit: the counter says so and Post waits (issue 41).
  const tooLong = isOverLimit(content, POST_MAX_LENGTH);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text || tooLong || submitting || waiting) return;
    setSubmitting(true);
    try {
      const payload: CreatePostRequest = { content: text, syncToProfile, isJdTagged };
      if (attachments.images.length > 0) payload.images = attachments.images;
      const mentioned = mentions.idsIn(text);
      if (mentioned.length > 0) payload.mentions = mentioned;
      const created = await callApi(callRoutes.createPost, { body: payload });
      setContent('');
      setSyncToProfile(true);
      setIsJdTagged(false);
      attachments.reset();
      mentions.reset();
      onOpenChange(false);
      // Discard cached posts and refresh the feed everywhere it is shown.
      await mutate(isPostKey, undefined, { revalidate: false });
      emitAppEvent('postCreated', created?.id ? { postId: created.id } : {});
      setTimeout(() => void mutate(isPostKey), REFETCH_DELAY_MS);
      toast({
        title: 'Success',
        description: 'Post created successfully!',
        duration: SUCCESS_TOAST_MS,
      });
    } catch (error) {
      toast({
        title: 'Error',
        description: failureDescription(error, 'Failed to create post. Please try again.'),
        variant: 'destructive',
      });
    } finally {
      setSubmitting(false);
    }
  };

  // Images pasted into the text, or dropped anywhere on the form, join the post's images.
  const onPaste = (event: ClipboardEvent) => {
    const files = imageFilesOf(event.clipboardData);
    if (files.length === 0 || submitting) return;
    if (!event.clipboardData.getData('text/plain')) event.preventDefault();
    attachments.addFiles(files);
  };
  const onDragOver = (event: DragEvent) => {
    if (event.dataTransfer.types.includes('Files')) event.preventDefault();
  };
  const onDrop = (event: DragEvent) => {
    if (event.dataTransfer.files.length === 0) return;
    event.preventDefault();
    if (!submitting) attachments.addFiles(event.dataTransfer.files);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Create Post">
      <Form onSubmit={onSubmit} onPaste={onPaste} onDragOver={onDragOver} onDrop={onDrop}>
        <MentionTextArea
          label="What's happening on campus?"
          hideLabel
          placeholder="What's happening on campus?"
          rows={5}
          limit={POST_MAX_LENGTH}
          value={content}
          onValueChange={setContent}
          onMention={mentions.add}
        />
        <ImageAttachments attachments={attachments} disabled={submitting} upload={upload} />
        <Options>
          <Checkbox
            label="Sync to profile timeline"
            checked={syncToProfile}
            onChange={(event) => setSyncToProfile(event.target.checked)}
          />
          <Checkbox
            label="Tag as JD (Jobs/Admissions)"
            checked={isJdTagged}
            onChange={(event) => setIsJdTagged(event.target.checked)}
          />
        </Options>
        <Footer>
          <Waiting role="status">{waiting}</Waiting>
          <Button type="submit" disabled={!text || tooLong || submitting || Boolean(waiting)}>
            {submitting ? 'Posting...' : 'Post'}
          </Button>
        </Footer>
      </Form>
    </Dialog>
  );
}
