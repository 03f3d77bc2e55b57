import { useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import styled from 'styled-components';
import { mediaMobile } from '@campus/kit/theme';

const Wrapper = styled.div`
  position: relative;
  margin-left: auto;
`;

const Trigger = styled.button`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  min-width: 32px;
  min-height: 32px;
  border: 0;
  border-radius: ${({ theme }) => theme.radius.full};
  background: transparent;
  color: ${({ theme }) => theme.colors.textMuted};
  font: inherit;
  font-size: 1.125rem;
  line-height: 1;
  cursor: pointer;

  &:hover {
    background: ${({ theme }) => theme.colors.surfaceMuted};
  }

  /* A fingertip needs 44 x 44 px (WCAG 2.5.5; issue 41). */
  ${mediaMobile} {
    min-width: 44px;
    min-height: 44px;
  }
`;

const Menu = styled.ul`
  position: absolute;
  right: 0;
  z-index: 20;
  min-width: 160px;
  margin: ${({ theme }) => theme.space(1)} 0 0;
  padding: ${({ theme }) => theme.space(1)};
  list-style: none;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: ${({ theme }) => theme.shadow.lg};

  button {
    width: 100%;
    padding: ${({ theme }) => theme.space(2)} ${({ theme }) => theme.space(3)};
    border: 0;
    border-radius: ${({ theme }) => theme.radius.sm};
    background: transparent;
    color: ${({ theme }) => theme.colors.text};
    font: inherit;
    font-size: 0.875rem;
    text-align: left;
    cursor: pointer;
  }
  button[data-tone='danger'] {
    color: ${({ theme }) => theme.colors.danger};
  }
  button:hover,
  button:focus-visible {
    background: ${({ theme }) => theme.colors.surfaceMuted};
  }
`;

/** One item of a '⋯' menu. */
export interface ActionItem {
  /** Stable and unique in the menu ('edit', 'delete', 'copy-link', 'report', 'mute'...). */
  key: string;
  label: string;
  onSelect: () => void;
  /** Destructive or reporting actions read in the danger colour. */
  tone?: 'danger';
}

export interface ActionsMenuProps {
  items: ActionItem[];
  /** What the menu is about, for screen readers ('More actions for this post'). */
  menuLabel: string;
  /** The '⋯' button, to give it focus back when a dialog an item opened closes. */
  triggerRef?: RefObject<HTMLButtonElement | null>;
}

/**
 * A '⋯' button opening a menu of actions (WAI-ARIA menu button). Keyboard: Enter, Space or
 * ArrowDown opens it on its first item, ArrowUp on its last; ArrowDown/ArrowUp move between items
 * (wrapping), Home and End go to the ends; Escape closes it and gives focus back to the button,
 * Tab closes it; a click elsewhere closes it. Choosing an item closes the menu first, then runs
 * the item (which may open a dialog). A click inside is not a click on the card around it.
 */
export function ActionsMenu({ items, menuLabel, triggerRef }: ActionsMenuProps) {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  const menuId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const ownTrigger = useRef<HTMLButtonElement>(null);
  const trigger = triggerRef ?? ownTrigger;
  const itemRefs = useRef<Array<HTMLButtonElement | null>>([]);

  useEffect(() => {
    if (!open) return;
    const buttons = itemRefs.current.filter(Boolean);
    (open === 'last' ? buttons.at(-1) : buttons[0])?.focus();
    const onPointerDown = (event: PointerEvent | MouseEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onPointerDown);
    return () => document.removeEventListener('mousedown', onPointerDown);
  }, [open]);

  if (items.length === 0) return null;

  const focusItem = (move: (index: number, count: number) => number) => {
    const buttons = itemRefs.current.filter((b): b is HTMLButtonElement => b !== null);
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    buttons[move(index, buttons.length)]?.focus();
  };

  const onMenuKeyDown = (event: KeyboardEvent) => {
    switch (event.key) {
      case 'Escape':
        event.stopPropagation();
        setOpen(false);
        trigger.current?.focus();
        return;
      case 'Tab':
        setOpen(false);
        return;
      case 'ArrowDown':
        event.preventDefault();
        focusItem((i, n) => (i + 1) % n);
        return;
      case 'ArrowUp':
        event.preventDefault();
        focusItem((i, n) => (i <= 0 ? n - 1 : i - 1));
        return;
      case 'Home':
        event.preventDefault();
        focusItem(() => 0);
        return;
      case 'End':
        event.preventDefault();
        focusItem((_i, n) => n - 1);
        return;
    }
  };

  return (
    <Wrapper ref={wrapper} onClick={(event) => event.stopPropagation()}>
      <Trigger
        ref={trigger}
        type="button"
        aria-label={menuLabel}
        aria-haspopup="menu"
        aria-expanded={open !== false}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((was) => (was ? false : 'first'))}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setOpen(event.key === 'ArrowDown' ? 'first' : 'last');
          }
        }}
      >
        <span aria-hidden="true">⋯</span>
      </Trigger>
      {open && (
        <Menu id={menuId} role="menu" aria-label={menuLabel} onKeyDown={onMenuKeyDown}>
          {items.map((item, index) => (
            <li role="none" key={item.key}>
              <button
                ref={(button) => {
                  itemRefs.current[index] = button;
                }}
                type="button"
                role="menuitem"
                data-tone={item.tone}
                onClick={() => {
                  setOpen(false);
                  item.onSelect();
                }}
              >
                {item.label}
              </button>
            </li>
          ))}
        </Menu>
      )}
    </Wrapper>
  );
}
