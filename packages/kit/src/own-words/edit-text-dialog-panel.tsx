import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import type { TextMention } from '@campus/contracts';
import {
  isOverLimit,
  MentionTextArea,
  useMentionPicks,
  type MentionPick,
} from '@campus/kit/mentions';
import { failureMessage } from './failure-message';
import { toast } from '@campus/kit/toast';
import { Button, Dialog } from '@campus/kit/ui';

const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(2)};
`;

export interface EditTextDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** 'Edit post', 'Edit comment'. */
  title: string;
  /** The text field's label: 'Post text', 'Comment'. */
  label: string;
  /** The text as it is now. */
  initial: string;
  /** Its @mentions as the API answered them (issue 40). */
  mentions?: readonly TextMention[];
  /** The most characters the text may have (a live counter shows n/max). */
  maxLength: number;
  /**
   * Saves the new text (trimmed); a failure's message is shown and the dialog stays open.
   * `mentions`: the members the text mentions once someone new was picked in the @ autocomplete
   * (the earlier ones still in it, then the new ones); absent otherwise, so the API keeps the
   * earlier mentions still in the text (even of a member renamed since).
   */
  save: (content: string, mentions?: number[]) => Promise<void>;
  /** The failure toast's text when the API says nothing more precise. */
  failure: string;
}

/**
 * Editing one's own post or comment: the text in a field with a counter, Save (disabled while the
 * trimmed text is empty, unchanged, over the limit or saving) and Cancel. Focus goes to the field, Escape or
 * Cancel closes, and the dialog gives focus back where it came from (the Dialog primitive).
 */
export function EditTextDialogPanel({
  open,
  onOpenChange,
  title,
  label,
  initial,
  mentions: earlier = [],
  maxLength,
  save,
  failure,
}: EditTextDialogProps) {
  const [text, setText] = useState(initial);
  const [before] = useState<MentionPick[]>(() =>
    earlier.map(({ id, start, end }) => ({ id, name: initial.slice(start + 1, end) })),
  );
  const mentions = useMentionPicks(before);
  const [saving, setSaving] = useState(false);
  // Each opening starts from the text as it is now: a closed dialog is not mounted (lazyOnOpen).

  const trimmed = text.trim();
  // A paste over the limit is kept whole, counted and warned about; Save waits (issue 41).
  const tooLong = isOverLimit(text, maxLength);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving || tooLong || !trimmed || trimmed === initial.trim()) return;
    setSaving(true);
    try {
      const picked = mentions.picks.length > before.length;
      await save(trimmed, picked ? mentions.idsIn(trimmed) : undefined);
      onOpenChange(false);
    } catch (error) {
      toast({
        title: 'Error',
        description: failureMessage(error, failure),
        variant: 'destructive',
      });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !saving && onOpenChange(next)} title={title}>
      <Form onSubmit={(event) => void onSubmit(event)}>
        <MentionTextArea
          label={label}
          rows={5}
          limit={maxLength}
          autoFocus
          value={text}
          onValueChange={setText}
          onMention={mentions.add}
        />
        <Actions>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={saving}>
            Cancel
          </Button>
          <Button
            type="submit"
            disabled={saving || tooLong || !trimmed || trimmed === initial.trim()}
          >
            {saving ? 'Saving...' : 'Save'}
          </Button>
        </Actions>
      </Form>
    </Dialog>
  );
}
