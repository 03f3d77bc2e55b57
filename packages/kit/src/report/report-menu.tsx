import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import type { ReportTargetType } from '@campus/contracts';
import { useSafetyActions } from '@campus/kit/safety';
import { useSession } from '@campus/kit/session';
import { ReportDialog } from './lazy-report-dialog';

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
    color: ${({ theme }) => theme.colors.danger};
    font: inherit;
    font-size: 0.875rem;
    text-align: left;
    cursor: pointer;
  }
  button:hover,
  button:focus-visible {
    background: ${({ theme }) => theme.colors.surfaceMuted};
  }
`;

export interface ReportMenuProps {
  targetType: ReportTargetType;
  targetId: number;
  /** Who wrote the post or comment (the member themselves for a profile): nobody reports themselves. */
  authorId: number;
  /** The menu item: 'Report post', 'Report', 'Report user'. */
  label: string;
  /** What the menu button is about, for screen readers ('More actions for this post'). */
  menuLabel?: string;
  /** The author's name, for the Mute and Block items (issue 38, @campus/kit/safety). */
  authorName?: string;
}

/**
 * A '⋯' menu button whose items mute or block the member, then report them (the report dialog;
 * issue 38, @campus/kit/safety; arrows, Home and End move between the items). Since issue 38's
 * `PostMenu` and `CommentMenu` (@campus/kit/own-words) it serves the profile's "Report user" only.
 * Signed-out visitors and the member themselves see nothing. Keyboard: Enter, Space or ArrowDown
 * opens the menu on its first item; Escape or Tab closes it (Escape returns focus to the
 * button); a click elsewhere closes it.
 */
export function ReportMenu({
  targetType,
  targetId,
  authorId,
  label,
  menuLabel = 'More actions',
  authorName,
}: ReportMenuProps) {
  const { user } = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  const [dialogOpen, setDialogOpen] = useState(false);
  const menuId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const safety = useSafetyActions({
    userId: authorId,
    userName: authorName,
    onDialogClosed: () => trigger.current?.focus(),
  });

  useEffect(() => {
    if (!menuOpen) return;
    menu.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    const onPointerDown = (event: PointerEvent | MouseEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setMenuOpen(false);
    };
    document.addEventListener('mousedown', onPointerDown);
    return () => document.removeEventListener('mousedown', onPointerDown);
  }, [menuOpen]);

  if (!user || user.id === authorId) return null;

  const onMenuKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      setMenuOpen(false);
      trigger.current?.focus();
    } else if (event.key === 'Tab') {
      setMenuOpen(false);
    } else if (
      event.key === 'ArrowDown' ||
      event.key === 'ArrowUp' ||
      event.key === 'Home' ||
      event.key === 'End'
    ) {
      event.preventDefault();
      const items = [
        ...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="menuitem"]'),
      ];
      const at = items.indexOf(document.activeElement as HTMLButtonElement);
      const last = items.length - 1;
      const next =
        event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? last
            : event.key === 'ArrowDown'
              ? (at + 1) % items.length
              : (at - 1 + items.length) % items.length;
      items[next]?.focus();
    }
  };

  return (
    // A click in the menu (or its portalled dialog) is not a click on the card around it.
    <Wrapper ref={wrapper} onClick={(event) => event.stopPropagation()}>
      <Trigger
        ref={trigger}
        type="button"
        aria-label={menuLabel}
        aria-haspopup="menu"
        aria-expanded={menuOpen}
        aria-controls={menuOpen ? menuId : undefined}
        onClick={() => setMenuOpen((open) => !open)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            setMenuOpen(true);
          }
        }}
      >
        <span aria-hidden="true">⋯</span>
      </Trigger>
      {menuOpen && (
        <Menu ref={menu} id={menuId} role="menu" aria-label={menuLabel} onKeyDown={onMenuKeyDown}>
          {safety.menuItems(() => setMenuOpen(false))}
          <li role="none">
            <button
              type="button"
              role="menuitem"
              onClick={() => {
                setMenuOpen(false);
                setDialogOpen(true);
              }}
            >
              {label}
            </button>
          </li>
        </Menu>
      )}
      <ReportDialog
        open={dialogOpen}
        onOpenChange={(open) => {
          setDialogOpen(open);
          // The dialog gives focus back to the menu item it came from, which is gone.
          if (!open) requestAnimationFrame(() => trigger.current?.focus());
        }}
        targetType={targetType}
        targetId={targetId}
      />
      {safety.dialogs}
    </Wrapper>
  );
}
