import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import styled from 'styled-components';
import { touchTextTarget } from '@campus/kit/theme';
import { Badge } from '@campus/kit/ui';
import { FailingMailPanel } from '../mail/failing-mail-panel';

const Page = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
  padding: ${({ theme }) => theme.space(4)};

  h1 {
    display: flex;
    flex-wrap: wrap;
    gap: ${({ theme }) => theme.space(2)};
    align-items: center;
    margin: 0;
    font-size: 1.5rem;
  }
`;

const Nav = styled.nav`
  ul {
    display: flex;
    flex-wrap: wrap;
    gap: ${({ theme }) => theme.space(1)};
    margin: 0;
    padding: 0;
    list-style: none;
  }
  a {
    display: inline-block;
    padding: ${({ theme }) => theme.space(1.5)} ${({ theme }) => theme.space(3)};
    border-radius: ${({ theme }) => theme.radius.full};
    font-size: 0.875rem;
    font-weight: 600;
    color: ${({ theme }) => theme.colors.textMuted};
    text-decoration: none;
    ${touchTextTarget}
    justify-content: center;
  }
  a:hover {
    background: ${({ theme }) => theme.colors.surfaceMuted};
  }
  a[aria-current='page'] {
    background: ${({ theme }) => theme.colors.surfaceMuted};
    color: ${({ theme }) => theme.colors.text};
  }
`;

/** The admin's pages, in the order the shell's Admin section lists them. */
export const ADMIN_PAGES = [
  { path: '/analytics', label: 'Analytics' },
  { path: '/admin/applications', label: 'Applications' },
  { path: '/admin/feedback', label: 'Feedback' },
  { path: '/admin/members', label: 'Members' },
  { path: '/admin/reports', label: 'Reports' },
  { path: '/admin/appeals', label: 'Appeals' },
  { path: '/admin/audit', label: 'Audit log' },
] as const;

/**
 * An admin page: its heading, the links between the admin pages, the e-mails not delivered (when
 * there are some), then its content.
 */
export function AdminFrame({
  title,
  children,
  toolbar,
}: {
  title: string;
  children: ReactNode;
  /** Filters shown under the heading. */
  toolbar?: ReactNode;
}) {
  return (
    <Page aria-labelledby="admin-page-title">
      <h1 id="admin-page-title">
        {title} <Badge $tone="danger">Admin Only</Badge>
      </h1>
      <Nav aria-label="Admin pages">
        <ul>
          {ADMIN_PAGES.map((page) => (
            <li key={page.path}>
              <NavLink to={page.path} end>
                {page.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </Nav>
      <FailingMailPanel />
      {toolbar}
      {children}
    </Page>
  );
}
