import { NavLink } from 'react-router-dom';
import styled from 'styled-components';
import { useSession } from '@campus/kit/session';
import { mediaDesktop } from '@campus/kit/theme';
import { BellIcon, HomeIcon, UserIcon } from './icons';
import { useUnreadCount } from './use-unread-count';

const Bar = styled.nav`
  position: fixed;
  inset: auto 0 0 0;
  z-index: 30;
  display: flex;
  height: 64px;
  border-top: 1px solid ${({ theme }) => theme.colors.border};
  background: ${({ theme }) => theme.colors.surface};
  ${mediaDesktop} {
    display: none;
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

/** Spec §2: the small-screen navigation; unread notifications show only as a dot. */
export function BottomBar() {
  const { user } = useSession();
  const unread = useUnreadCount();
  if (!user) return null;
  return (
    <Bar aria-label="Bottom navigation">
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
    </Bar>
  );
}
