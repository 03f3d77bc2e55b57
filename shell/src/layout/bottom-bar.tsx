import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import styled, { createGlobalStyle } from 'styled-components';
import { useSession } from '@campus/kit/session';
import { mediaDesktop } from '@campus/kit/theme';
import { TOAST_BOTTOM_INSET_PROPERTY } from '@campus/kit/toast';
import { Badge } from '@campus/kit/ui';
import { ADMIN_LINKS, adminHasWork, useAdminSummary } from './admin-section';
import { BellIcon, HomeIcon, ShieldIcon, UserIcon } from './icons';
import { useUnreadCount } from './use-unread-count';

const BAR_HEIGHT_PX = 64;

const Bar = styled.nav`
  position: fixed;
  inset: auto 0 0 0;
  z-index: 30;
  display: flex;
  height: ${BAR_HEIGHT_PX}px;
  border-top: 1px solid ${({ theme }) => theme.colors.border};
  background: ${({ theme }) => theme.colors.surface};
  ${mediaDesktop} {
    display: none;
  }
`;

/** While the bar is on screen (phones), toasts sit above it instead of covering it (issue 41). */
const ToastsAboveTheBar = createGlobalStyle`
  :root {
    ${TOAST_BOTTOM_INSET_PROPERTY}: ${BAR_HEIGHT_PX}px;
  }
  ${mediaDesktop} {
    :root {
      ${TOAST_BOTTOM_INSET_PROPERTY}: 0px;
    }
  }
`;

const Item = styled(NavLink)`
  position: relative;
  flex: 1;
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  gap: 2px;
  font-size: 0.6875rem;
  text-decoration: none;
  color: ${({ theme }) => theme.colors.textMuted};

  &.active {
    color: ${({ theme }) => theme.colors.primary};
  }
`;

const Dot = styled.span`
  position: absolute;
  top: 10px;
  left: calc(50% + 6px);
  width: 8px;
  height: 8px;
  border-radius: 50%;
  background: ${({ theme }) => theme.colors.danger};
`;

const MenuButton = styled.button`
  position: relative;
  flex: 1;
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  gap: 2px;
  border: 0;
  background: transparent;
  font: inherit;
  font-size: 0.6875rem;
  color: ${({ theme }) => theme.colors.textMuted};
  cursor: pointer;

  &[aria-expanded='true'] {
    color: ${({ theme }) => theme.colors.primary};
  }
`;

const AdminMenu = styled.ul`
  position: fixed;
  right: ${({ theme }) => theme.space(2)};
  bottom: 72px;
  z-index: 31;
  display: grid;
  min-width: 220px;
  margin: 0;
  padding: ${({ theme }) => theme.space(1)};
  list-style: none;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: ${({ theme }) => theme.shadow.lg};

  a {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: ${({ theme }) => theme.space(2)};
    min-height: 44px;
    padding: 0 ${({ theme }) => theme.space(3)};
    border-radius: ${({ theme }) => theme.radius.md};
    color: inherit;
    text-decoration: none;
  }
  a:hover,
  a:focus-visible,
  a.active {
    background: ${({ theme }) => theme.colors.surfaceMuted};
  }
`;

/**
 * The admin's pages on a small screen (issue 18): an Admin item opening a menu of them, with a
 * dot when something waits. Escape closes it on its button; choosing a page or a tap elsewhere
 * closes it too.
 */
function AdminMenuItem() {
  const summary = useAdminSummary();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const [openedAt, setOpenedAt] = useState(pathname);
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  if (open && openedAt !== pathname) {
    setOpen(false); // a page was chosen
    setOpenedAt(pathname);
  }

  useEffect(() => {
    if (!open) return;
    wrapper.current?.querySelector<HTMLElement>('a')?.focus();
    const onPointerDown = (event: MouseEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onPointerDown);
    return () => document.removeEventListener('mousedown', onPointerDown);
  }, [open]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    setOpen(false);
    button.current?.focus();
  };

  return (
    <div ref={wrapper} style={{ display: 'contents' }} onKeyDown={onKeyDown}>
      <MenuButton
        ref={button}
        type="button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls="admin-menu"
        aria-label={adminHasWork(summary) ? 'Admin (something waits)' : 'Admin'}
        onClick={() => {
          setOpenedAt(pathname);
          setOpen((value) => !value);
        }}
      >
        <ShieldIcon />
        {adminHasWork(summary) && <Dot data-testid="admin-dot" />}
        Admin
      </MenuButton>
      {open && (
        <AdminMenu id="admin-menu" aria-label="Admin pages">
          {ADMIN_LINKS.map((link) => {
            const count = link.count && summary ? summary[link.count] : 0;
            return (
              <li key={link.to}>
                <NavLink to={link.to} end>
                  {link.label}
                  {count > 0 && (
                    <Badge $tone="danger" aria-label={`${count} ${link.countLabel}`}>
                      {count}
                    </Badge>
                  )}
                </NavLink>
              </li>
            );
          })}
        </AdminMenu>
      )}
    </div>
  );
}

/** Spec §2: the small-screen navigation; unread notifications show only as a dot. */
export function BottomBar() {
  const { user, isAdmin } = useSession();
  const unread = useUnreadCount();
  if (!user) return null;
  return (
    <Bar aria-label="Bottom navigation">
      <ToastsAboveTheBar />
      <Item to="/" end>
        <HomeIcon />
        Home
      </Item>
      <Item
        to="/notifications"
        aria-label={unread > 0 ? 'Notifications (unread)' : 'Notifications'}
      >
        <BellIcon />
        {unread > 0 && <Dot data-testid="unread-dot" />}
        Notifications
      </Item>
      <Item to={`/profile/${user.id}`}>
        <UserIcon />
        Profile
      </Item>
      {isAdmin && <AdminMenuItem />}
    </Bar>
  );
}
