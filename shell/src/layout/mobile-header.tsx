import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { mediaDesktop } from '@campus/kit/theme';
import { SearchIcon } from './icons';
import { Logo } from './logo';

const Header = styled.header`
  position: fixed;
  inset: 0 0 auto 0;
  z-index: 30;
  display: flex;
  align-items: center;
  justify-content: space-between;
  height: 56px;
  padding: 0 ${({ theme }) => theme.space(4)};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  background: ${({ theme }) => theme.colors.surface};
  ${mediaDesktop} {
    display: none;
  }

  a {
    display: inline-flex;
    color: inherit;
  }
`;

/** Spec §2: below 768 px, the logo and a search icon linking to /search. */
export function MobileHeader() {
  return (
    <Header>
      <Link to="/" aria-label="Campus home">
        <Logo />
      </Link>
      <Link to="/search" aria-label="Search">
        <SearchIcon />
      </Link>
    </Header>
  );
}
