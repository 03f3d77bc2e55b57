import { Link, NavLink, useLocation } from 'react-router-dom';
import styled from 'styled-components';
import { useSession } from '@campus/kit/session';
import { mediaMobile } from '@campus/kit/theme';
import { Avatar, Badge, Button, useMediaQuery } from '@campus/kit/ui';
import { adminWaiting, useAdminSummary } from './admin-section';
import { TrendingToday } from '../search/trending-today';
import { BellIcon, BookmarkIcon, HomeIcon, SearchIcon, ShieldIcon, UserIcon } from './icons';
import { Logo } from './logo';
import { useUnreadCount } from './use-unread-count';

const Aside = styled.aside`
  position: fixed;
  inset: 0 auto 0 0;
  z-index: 30;
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(2)};
  width: ${({ theme }) => theme.space(60)};
  padding: ${({ theme }) => theme.space(4)};
  border-right: 1px solid ${({ theme }) => theme.colors.border};
  background: ${({ theme }) => theme.colors.surface};
  overflow-y: auto;
  ${mediaMobile} {
    display: none;
  }
`;

const NavList = styled.ul`
  display: grid;
  gap: ${({ theme }) => theme.space(1)};
  margin: ${({ theme }) => theme.space(4)} 0;
  padding: 0;
  list-style: none;
`;

const Item = styled(NavLink)`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => theme.space(2.5)} ${({ theme }) => theme.space(3)};
  border-radius: ${({ theme }) => theme.radius.full};
  text-decoration: none;
  font-weight: 500;

  &:hover {
    background: ${({ theme }) => theme.colors.surfaceMuted};
  }
  &.active {
    font-weight: 700;
    color: ${({ theme }) => theme.colors.primary};
  }
`;

/**
 * The admin's one way in (issue 41): the admin pages link to each other with their own tabs
 * (mf-admin's AdminFrame), so the sidebar no longer lists them a second time; it says how much
 * waits, all pages together, and stays active on every admin page.
 */
function AdminItem() {
  const summary = useAdminSummary();
  const { isAdmin } = useSession();
  const { pathname } = useLocation();
  if (!isAdmin) return null;
  const waiting = adminWaiting(summary);
  const onAdminPage = pathname === '/analytics' || pathname.startsWith('/admin/');
  return (
    <li>
      <Item
        as={Link}
        to="/analytics"
        className={onAdminPage ? 'active' : undefined}
        aria-current={onAdminPage ? 'page' : undefined}
      >
        <ShieldIcon />
        Admin
        {waiting > 0 && (
          <Badge $tone="danger" aria-label={`${waiting} waiting`}>
            {waiting}
          </Badge>
        )}
      </Item>
    </li>
  );
}

const SearchButton = styled(Link)`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
  padding: ${({ theme }) => theme.space(2)} ${({ theme }) => theme.space(3)};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.full};
  color: ${({ theme }) => theme.colors.textMuted};
  text-decoration: none;
  font-size: 0.875rem;
`;

const Me = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(3)};
  margin-top: auto;
  min-width: 0;

  div {
    display: grid;
    min-width: 0;
  }
  strong,
  span {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  span {
    font-size: 0.8125rem;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const SettingsLink = styled(Link)`
  justify-self: start;
  font-size: 0.8125rem;
  color: ${({ theme }) => theme.colors.primary};
`;

/** Today's top tags (issue 40) under the Post button; the sidebar is hidden on small screens. */
const SidebarTrending = styled(TrendingToday)`
  margin-top: ${({ theme }) => theme.space(2)};

  h2 {
    margin: 0 0 ${({ theme }) => theme.space(1)};
    padding: 0 ${({ theme }) => theme.space(3)};
    font-size: 0.75rem;
    font-weight: 700;
    text-transform: uppercase;
    letter-spacing: 0.04em;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

/** Spec §2: the large-screen navigation, 60 units wide. */
export function Sidebar({ onPost }: { onPost: () => void }) {
  const { user } = useSession();
  const unread = useUnreadCount();
  // Hidden on a phone (CSS): then it does not ask for today's tags either.
  const smallScreen = useMediaQuery(mediaMobile);
  if (!user) return null;
  return (
    <Aside aria-label="Sidebar">
      <Link to="/" aria-label="Campus home">
        <Logo />
      </Link>
      <nav aria-label="Main">
        <NavList>
          <li>
            <Item to="/" end>
              <HomeIcon />
              Home
            </Item>
          </li>
          <li>
            <Item to="/notifications">
              <BellIcon />
              Notifications
              {unread > 0 && (
                <Badge $tone="danger" aria-label={`${unread} unread`} data-testid="unread-badge">
                  {unread}
                </Badge>
              )}
            </Item>
          </li>
          <li>
            <Item to={`/profile/${user.id}`}>
              <UserIcon />
              Profile
            </Item>
          </li>
          <li>
            <Item to="/bookmarks">
              <BookmarkIcon />
              Bookmarks
            </Item>
          </li>
          <AdminItem />
        </NavList>
      </nav>
      <SearchButton to="/search">
        <SearchIcon />
        Search
      </SearchButton>
      <Button size="lg" fullWidth onClick={onPost}>
        Post
      </Button>
      {!smallScreen && <SidebarTrending />}
      <Me>
        <Avatar name={user.name} src={user.avatarUrl} />
        <div>
          <strong>{user.name}</strong>
          <span>{user.email}</span>
          <SettingsLink to="/settings">Settings</SettingsLink>
        </div>
      </Me>
    </Aside>
  );
}
