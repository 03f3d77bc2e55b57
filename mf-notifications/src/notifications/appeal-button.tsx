import { useState } from 'react';
import styled from 'styled-components';
import { ALREADY_APPEALED_MESSAGE, APPEAL_TEXT_MAX_LENGTH, callRoutes } from '@campus/contracts';
import { ApiError, callApi, failureDescription } from '@campus/kit/api';
import { toast } from '@campus/kit/toast';
import { Button, ReasonDialog } from '@campus/kit/ui';

const Line = styled.p`
  padding: 0 ${({ theme }) => theme.space(4)} ${({ theme }) => theme.space(3)} 68px;
  font-size: 0.8125rem;
`;

/**
 * Issue 38: the member appeals a removal from its notification, once, in a few sentences
 * (`POST /api/appeals`). After it is sent, or if it was sent before (409), the button gives way
 * to a line that says so; a notice the member appealed earlier (`appealed`) shows that line only.
 */
export function AppealButton({
  decisionId,
  what,
  appealed,
}: {
  decisionId: number;
  what: string;
  appealed: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState(false);
  if (appealed && !sent) return <Line>You appealed this decision.</Line>;
  if (sent) return <Line role="status">Appeal sent. The Campus team will review it.</Line>;
  return (
    <Line>
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)}>
        Appeal
      </Button>
      <ReasonDialog
        open={open}
        onOpenChange={setOpen}
        title={`Appeal the removal of your ${what}`}
        description="Tell the Campus team, in a few sentences, why it should be restored. You can appeal once."
        label="Your appeal"
        required
        maxLength={APPEAL_TEXT_MAX_LENGTH}
        confirmText="Send appeal"
        busyText="Sending..."
        validate={(text) => (text ? null : 'Appeal is required')}
        onConfirm={async (text) => {
          try {
            await callApi(callRoutes.fileAppeal, { body: { decisionId, text } });
            toast({
              title: 'Appeal sent',
              description: 'The Campus team will review it and tell you what they decide.',
            });
          } catch (failure) {
            if (!(failure instanceof ApiError && failure.status === 409)) throw failure;
            toast({
              title: 'Already appealed',
              description: failure.serverMessage ?? ALREADY_APPEALED_MESSAGE,
            });
          }
          setSent(true);
        }}
        failureMessage={(failure) =>
          failure instanceof ApiError && failure.status < 500 && failure.serverMessage
            ? failureDescription(failure, failure.serverMessage)
            : 'Failed to send the appeal. Please try again.'
        }
      />
    </Line>
  );
}
