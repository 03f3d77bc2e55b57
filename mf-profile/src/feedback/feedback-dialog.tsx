import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { useSWRConfig } from 'swr';
import { callRoutes } from '@campus/contracts';
import { callApi } from '@campus/kit/api';
import { keys } from '@campus/kit/data';
import { toast } from '@campus/kit/toast';
import { Button, Dialog, TextArea } from '@campus/kit/ui';

const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(2)};
`;

/** Spec §2 "Feedback dialog": one 5-row field; the trimmed text must not be empty. */
export function FeedbackDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { mutate } = useSWRConfig();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const feedback = text.trim();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!feedback || sending) return;
    setSending(true);
    try {
      await callApi(callRoutes.sendFeedback, { body: { feedback } });
      toast({
        title: 'Feedback sent!',
        description: "Thank you for your feedback. We'll review it soon.",
      });
      void mutate(keys.notifications());
      setText('');
      onOpenChange(false);
    } catch {
      toast({
        title: 'Error',
        description: 'Failed to send feedback. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Send Feedback">
      <Form onSubmit={onSubmit}>
        <TextArea
          label="Your feedback"
          hideLabel
          placeholder="Tell us what works and what doesn't..."
          rows={5}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <Actions>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={!feedback || sending}>
            Send Feedback
          </Button>
        </Actions>
      </Form>
    </Dialog>
  );
}
