import { useEffect, useRef, type RefObject } from 'react';

/**
 * Gives focus back to a menu's button once the dialog one of its items opened has closed (the
 * item is gone with the menu). After the commit that removed the dialog, so the dialog's own
 * focus handling (its trap, its restoring of what had focus before it) is over by then.
 */
export function useReturnFocus(
  trigger: RefObject<HTMLButtonElement | null>,
  dialog: string | null,
): void {
  const opened = useRef(false);
  useEffect(() => {
    if (dialog !== null) {
      opened.current = true;
    } else if (opened.current) {
      opened.current = false;
      trigger.current?.focus();
    }
  }, [trigger, dialog]);
}
