import { useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import styled from 'styled-components';
import { useSWRConfig } from 'swr';
import type { MuteDuration } from '@campus/contracts';
import { emitAppEvent } from '@campus/kit/events';
import { toast } from '@campus/kit/toast';
import { Button, Dialog } from '@campus/kit/ui';
import { blockMember, muteMember, MUTE_CHOICES } from './safety-requests';

const Choices = styled.fieldset`
  display: grid;
  gap: ${({ theme }) => theme.space(2)};
  margin: 0 0 ${({ theme }) => theme.space(4)};
  padding: 0;
  border: 0;

  legend {
    margin-bottom: ${({ theme }) => theme.space(2)};
    font-weight: 600;
    font-size: 0.875rem;
  }
  label {
    display: flex;
    gap: ${({ theme }) => theme.space(2)};
    align-items: center;
    font-size: 0.875rem;
  }
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(2)};
`;

export interface SafetyActionsOptions {
  /** The member the actions are about (the author of the post or comment, or the profile). */
  userId: number;
  /** Their name, for the items and dialogs (default: "this member"). */
  userName?: string;
  /** Called when a dialog closes: the menu's button takes the focus back. */
  onDialogClosed?: () => void;
}

/** One item of a '⋯' menu, as `@campus/kit/own-words`' `ActionItem` (`otherItems` of its menus). */
export interface SafetyMenuItem {
  key: string;
  label: string;
  onSelect: () => void;
}

/**
 * The Mute and Block actions of the '⋯' menu on others' posts, comments and profiles (issue 38):
 * `items` the two items for a menu that draws `ActionItem`s (the `otherItems` of `PostMenu` and
 * `CommentMenu`); `menuItems(close)` draws them as `role="menuitem"` buttons (`ReportMenu`, the
 * profile's); `dialogs` the confirmation dialogs they open, to be drawn outside the menu (which
 * closes).
 * A mute asks for how long (1 day, 7 days, until unmuted). After either, every page's data is read
 * again and `memberHidden` tells the feeds; nobody is told they were muted or blocked.
 */
export function useSafetyActions({ userId, userName, onDialogClosed }: SafetyActionsOptions) {
  const name = userName ?? 'this member';
  const [open, setOpen] = useState<'mute' | 'block' | null>(null);
  const [duration, setDuration] = useState<MuteDuration>('forever');
  const [pending, setPending] = useState(false);
  const { mutate } = useSWRConfig();
  const group = useId();

  const close = () => {
    setOpen(null);
    requestAnimationFrame(() => onDialogClosed?.());
  };

  const act = async (what: 'mute' | 'block') => {
    setPending(true);
    try {
      if (what === 'block') await blockMember(userId);
      else await muteMember(userId, duration);
    } catch {
      toast({
        title: 'Error',
        description: `Failed to ${what} ${name}. Please try again.`,
        variant: 'destructive',
      });
      return;
    } finally {
      setPending(false);
    }
    close();
    toast({
      title: what === 'block' ? 'Blocked' : 'Muted',
      description: `${what === 'block' ? 'You blocked' : 'You muted'} ${name}. Undo it in Settings, Privacy and safety.`,
    });
    emitAppEvent('memberHidden', { userId });
    void mutate(() => true);
  };

  const items: SafetyMenuItem[] = [
    { key: 'mute', label: `Mute ${name}`, onSelect: () => setOpen('mute') },
    { key: 'block', label: `Block ${name}`, onSelect: () => setOpen('block') },
  ];

  const menuItems = (closeMenu: () => void): ReactNode => (
    <>
      <li role="none">
        <button
          type="button"
          role="menuitem"
          onClick={() => {
            closeMenu();
            setOpen('mute');
          }}
        >
          Mute {name}
        </button>
      </li>
      <li role="none">
        <button
          type="button"
          role="menuitem"
          onClick={() => {
            closeMenu();
            setOpen('block');
          }}
        >
          Block {name}
        </button>
      </li>
    </>
  );

  const dialogs = (
    <>
      <Dialog
        open={open === 'mute'}
        onOpenChange={(next) => !next && close()}
        title={`Mute ${name}?`}
        description="You won't see their posts, reposts or notifications. They won't be told."
      >
        <Choices>
          <legend id={`${group}-legend`}>For how long</legend>
          {MUTE_CHOICES.map((choice) => (
            <label key={choice.duration}>
              <input
                type="radio"
                name={group}
                value={choice.duration}
                checked={duration === choice.duration}
                onChange={() => setDuration(choice.duration)}
              />
              {choice.label}
            </label>
          ))}
        </Choices>
        <Actions>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button disabled={pending} onClick={() => void act('mute')}>
            Mute
          </Button>
        </Actions>
      </Dialog>
      <Dialog
        open={open === 'block'}
        onOpenChange={(next) => !next && close()}
        title={`Block ${name}?`}
        description="Neither of you will see the other's posts, comments or profile, or be able to follow, reply to or repost the other. Your follows end. They won't be told."
      >
        <Actions>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="destructive" disabled={pending} onClick={() => void act('block')}>
            Block
          </Button>
        </Actions>
      </Dialog>
    </>
  );

  return { items, menuItems, dialogs };
}

/**
 * Mute and Block for the '⋯' menu of someone's post or comment (`PostMenu`, `CommentMenu`):
 * pass `triggerRef` and `items` (as `otherItems`) to the menu and draw `dialogs` beside it; the
 * menu's button takes the focus back when a dialog closes.
 */
export function useSafetyMenuItems(author: { id: number; name: string }): {
  triggerRef: RefObject<HTMLButtonElement | null>;
  items: SafetyMenuItem[];
  dialogs: ReactNode;
} {
  const triggerRef = useRef<HTMLButtonElement>(null);
  const { items, dialogs } = useSafetyActions({
    userId: author.id,
    userName: author.name,
    onDialogClosed: () => triggerRef.current?.focus(),
  });
  return { triggerRef, items, dialogs };
}
