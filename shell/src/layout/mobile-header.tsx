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

  /* 44×44 CSS px to touch (issue 41: the search icon was 22×22); the icon stays as drawn. */
  a {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    min-width: 44px;
    min-height: 44px;
    color: inherit;
  }
  a:last-child {
    margin-right: -${({ theme }) => theme.space(2.75)};
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
