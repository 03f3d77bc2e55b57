import { useState } from 'react';
import styled from 'styled-components';
import {
  APPEAL_TEXT_MAX_LENGTH,
  callRoutes,
  REPORT_CATEGORY_LABELS,
  suspendedSignInErrorSchema,
  type MemberAppeal,
  type SuspensionNotice as Notice,
} from '@campus/contracts';
import { ApiError, callApi, failureDescription } from '@campus/kit/api';
import { exactTime } from '@campus/kit/format';
import { toast } from '@campus/kit/toast';
import { Button, ReasonDialog } from '@campus/kit/ui';

const Panel = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space(2)};
  padding: ${({ theme }) => theme.space(3)};
  border: 1px solid ${({ theme }) => theme.colors.danger};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme }) => theme.colors.surfaceMuted};
  font-size: 0.875rem;

  h2 {
    margin: 0;
    font-size: 1rem;
  }
  p {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

/** The suspension a refused sign-in's 403 carries (issue 38), or null for any other failure. */
export function suspensionOf(error: unknown): Notice | null {
  if (!(error instanceof ApiError) || error.status !== 403) return null;
  try {
    const parsed = suspendedSignInErrorSchema.safeParse(JSON.parse(error.body));
    return parsed.success ? parsed.data.suspension : null;
  } catch {
    return null;
  }
}

const APPEAL_STATES: Record<MemberAppeal['status'], string> = {
  pending: 'Your appeal was sent. The Campus team will review it and e-mail you.',
  upheld: 'The Campus team reviewed your appeal and kept the suspension.',
  lifted: 'The Campus team lifted the suspension. Sign in again.',
};

/**
 * Issue 38: what a suspended member's sign-in shows besides the spec's message: the reason the
 * administrator gave, and the one appeal they may make (with the ticket of this sign-in), or
 * where their appeal stands.
 */
export function SuspensionNotice({ notice }: { notice: Notice }) {
  const [open, setOpen] = useState(false);
  const [appeal, setAppeal] = useState<MemberAppeal | null>(notice.appeal);
  const { reason } = notice;
  return (
    <Panel aria-labelledby="suspension-title">
      <h2 id="suspension-title">Your account is suspended</h2>
      <p>
        Reason: {REPORT_CATEGORY_LABELS[reason.category]}
        {reason.text ? `. ${reason.text}` : ''}
      </p>
      <p>Since {exactTime(notice.suspendedAt)}</p>
      {appeal ? (
        <p role="status">{APPEAL_STATES[appeal.status]}</p>
      ) : (
        notice.ticket && (
          <div>
            <Button size="sm" variant="secondary" onClick={() => setOpen(true)}>
              Appeal this decision
            </Button>
            <ReasonDialog
              open={open}
              onOpenChange={setOpen}
              title="Appeal your suspension"
              description="Tell the Campus team, in a few sentences, why your account should be reactivated. You can appeal once; the answer comes by e-mail."
              label="Your appeal"
              required
              maxLength={APPEAL_TEXT_MAX_LENGTH}
              confirmText="Send appeal"
              busyText="Sending..."
              validate={(text) => (text ? null : 'Appeal is required')}
              onConfirm={async (text) => {
                const sent = await callApi(callRoutes.appealSuspension, {
                  body: { ticket: notice.ticket!, text },
                });
                setAppeal(sent);
                toast({
                  title: 'Appeal sent',
                  description: 'The Campus team will review it and e-mail you.',
                });
              }}
              failureMessage={(failure) =>
                failure instanceof ApiError && failure.status < 500 && failure.serverMessage
                  ? failureDescription(failure, failure.serverMessage)
                  : 'Failed to send the appeal. Please try again.'
              }
            />
          </div>
        )
      )}
    </Panel>
  );
}
