import { useId } from 'react';
import styled from 'styled-components';
import type { ApproveApplicationResponse } from '@campus/contracts';
import { monthDay } from '@campus/kit/format';
import { toast } from '@campus/kit/toast';
import { Button, Dialog } from '@campus/kit/ui';
import { controlStyle } from '../admin/control-style';

const Field = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(1.5)};

  label {
    font-size: 0.875rem;
    font-weight: 600;
  }
  div {
    display: flex;
    gap: ${({ theme }) => theme.space(2)};
  }
  input {
    flex: 1;
    min-width: 0;
    ${controlStyle}
    font-size: 0.8125rem;
  }
`;

const Note = styled.p`
  margin: ${({ theme }) => theme.space(3)} 0 0;
  font-size: 0.875rem;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Done = styled.div`
  display: flex;
  justify-content: flex-end;
  margin-top: ${({ theme }) => theme.space(4)};
`;

/**
 * After an approval: the link for hand delivery, to copy and send another way. An account made
 * with it verifies its e-mail by mail (issue 35): the address in the contact text may be anyone's.
 * Only the mailed link, in the invitee's mailbox, registers that address verified at once.
 */
export function InvitationDialog({
  approval,
  onClose,
}: {
  approval: ApproveApplicationResponse | null;
  onClose: () => void;
}) {
  const id = useId();
  const copy = async () => {
    if (!approval) return;
    try {
      await navigator.clipboard.writeText(approval.invitationUrl);
      toast({ title: 'Link copied' });
    } catch {
      toast({
        title: 'Could not copy the link',
        description: 'Select the link and copy it yourself.',
        variant: 'destructive',
      });
    }
  };
  return (
    <Dialog
      open={approval !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Invitation created"
      description={
        approval
          ? `${approval.application.name} can register with this link until ${monthDay(new Date(approval.expiresAt), { year: true })}. It works once.`
          : undefined
      }
    >
      {approval && (
        <>
          <Field>
            <label htmlFor={id}>Invitation link for hand delivery</label>
            <div>
              <input
                id={id}
                aria-describedby={`${id}-note`}
                readOnly
                value={approval.invitationUrl}
                onFocus={(event) => event.currentTarget.select()}
              />
              <Button size="sm" onClick={() => void copy()}>
                Copy invitation link
              </Button>
            </div>
          </Field>
          <Note id={`${id}-note`}>
            {approval.emailed && approval.application.email
              ? `An invitation with its own link was also e-mailed to ${approval.application.email}; whichever link is used first counts.`
              : approval.application.email
                ? `The invitation could not be e-mailed to ${approval.application.email}: send this link another way.`
                : 'The contact information has no e-mail address: send the link another way.'}{' '}
            Whoever registers with this link verifies their e-mail address by mail.
          </Note>
          <Done>
            <Button variant="secondary" size="sm" onClick={onClose}>
              Done
            </Button>
          </Done>
        </>
      )}
    </Dialog>
  );
}
