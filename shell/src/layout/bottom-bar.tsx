import { Link, NavLink, useLocation } from 'react-router-dom';
import styled, { createGlobalStyle } from 'styled-components';
import { useSession } from '@campus/kit/session';
import { mediaDesktop } from '@campus/kit/theme';
import { TOAST_BOTTOM_INSET_PROPERTY } from '@campus/kit/toast';
import { adminWaiting, useAdminSummary } from './admin-section';
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

/**
 * The admin's one way in on a small screen (issue 41), as in the sidebar: the admin pages link to
 * each other with their own tabs (mf-admin's AdminFrame), so the bar no longer opens a menu that
 * lists them a second time. A dot when something waits; current on every admin page.
 */
function AdminItem() {
  const summary = useAdminSummary();
  const { pathname } = useLocation();
  const onAdminPage = pathname === '/analytics' || pathname.startsWith('/admin/');
  const waiting = adminWaiting(summary);
  return (
    <Item
      as={Link}
      to="/analytics"
      className={onAdminPage ? 'active' : undefined}
      aria-current={onAdminPage ? 'page' : undefined}
      aria-label={waiting > 0 ? `Admin (${waiting} waiting)` : 'Admin'}
    >
      <ShieldIcon />
      {waiting > 0 && <Dot data-testid="admin-dot" />}
      Admin
    </Item>
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
      {isAdmin && <AdminItem />}
    </Bar>
  );
}
