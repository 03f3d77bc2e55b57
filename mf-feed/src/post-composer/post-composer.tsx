import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { useSWRConfig } from 'swr';
import { callRoutes, type CreatePostRequest } from '@campus/contracts';
import { callApi, failureDescription } from '@campus/kit/api';
import { emitAppEvent } from '@campus/kit/events';
import { toast } from '@campus/kit/toast';
import { Button, Checkbox, Dialog, TextArea } from '@campus/kit/ui';
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
  justify-content: flex-end;
`;

/** Spec §2 "Post creation dialog", opened by the shell's Post and floating buttons. */
export default function PostComposer({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { mutate } = useSWRConfig();
  const [content, setContent] = useState('');
  const [syncToProfile, setSyncToProfile] = useState(true);
  const [isJdTagged, setIsJdTagged] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const text = content.trim();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text || submitting) return;
    setSubmitting(true);
    try {
      const payload: CreatePostRequest = { content: text, syncToProfile, isJdTagged };
      const created = await callApi(callRoutes.createPost, { body: payload });
      setContent('');
      setSyncToProfile(true);
      setIsJdTagged(false);
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

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Create Post">
      <Form onSubmit={onSubmit}>
        <TextArea
          label="What's happening on campus?"
          hideLabel
          placeholder="What's happening on campus?"
          rows={5}
          value={content}
          onChange={(event) => setContent(event.target.value)}
        />
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
          <Button type="submit" disabled={!text || submitting}>
            {submitting ? 'Posting...' : 'Post'}
          </Button>
        </Footer>
      </Form>
    </Dialog>
  );
}
