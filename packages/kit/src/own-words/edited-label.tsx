import { useState } from 'react';
import styled from 'styled-components';
import { exactTime } from '@campus/kit/format';
import { touchHitArea } from '@campus/kit/theme';
import { VersionsDialog } from './lazy-dialogs';

const Label = styled.button`
  padding: 0;
  border: 0;
  background: none;
  color: ${({ theme }) => theme.colors.textMuted};
  font: inherit;
  font-size: 0.8125rem;
  text-decoration: underline dotted;
  cursor: pointer;

  &:hover {
    color: ${({ theme }) => theme.colors.text};
  }
  /* A fingertip's target on a phone (issue 41), the line unchanged. */
  ${touchHitArea}
`;

/**
 * The "edited" mark of an edited post or comment: a button that opens its earlier versions.
 * Nothing when it was never edited.
 */
export function EditedLabel({
  kind,
  id,
  editedAt,
}: {
  kind: 'post' | 'comment';
  id: number;
  editedAt?: string | null;
}) {
  const [open, setOpen] = useState(false);
  if (!editedAt) return null;
  return (
    // A click on it is not a click on the card around it.
    <span onClick={(event) => event.stopPropagation()}>
      <Label
        type="button"
        title={`Edited ${exactTime(editedAt)}`}
        aria-label={`Edited ${exactTime(editedAt)}: show the earlier versions of this ${kind}`}
        onClick={() => setOpen(true)}
      >
        edited
      </Label>
      <VersionsDialog open={open} onOpenChange={setOpen} kind={kind} id={id} />
    </span>
  );
}
