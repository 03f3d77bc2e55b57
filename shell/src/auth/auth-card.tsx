import type { ReactNode } from 'react';
import styled from 'styled-components';
import { touchTextTarget } from '@campus/kit/theme';

const Screen = styled.main`
  min-height: 100vh;
  display: flex;
  align-items: center;
  justify-content: center;
  padding: ${({ theme }) => theme.space(4)};
`;

const Card = styled.section`
  width: 100%;
  max-width: 420px;
  display: grid;
  gap: ${({ theme }) => theme.space(5)};
  padding: ${({ theme }) => theme.space(8)} ${({ theme }) => theme.space(6)};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: ${({ theme }) => theme.shadow.sm};

  h1 {
    margin: 0;
    font-size: 1.5rem;
  }
  form {
    display: grid;
    gap: ${({ theme }) => theme.space(4)};
  }
`;

export const Muted = styled.p`
  margin: 0;
  font-size: 0.875rem;
  color: ${({ theme }) => theme.colors.textMuted};
  text-align: center;

  /* Its links and link buttons are fingertip-sized on a phone (issue 41). */
  a,
  button {
    ${touchTextTarget}
    justify-content: center;
  }
`;

export const LinkButton = styled.button`
  padding: 0;
  border: 0;
  background: none;
  color: ${({ theme }) => theme.colors.primary};
  font: inherit;
  text-decoration: underline;
  cursor: pointer;
`;

/** A rule a field follows, told before anyone types (under the field, in its description). */
export const FieldHint = styled.p`
  margin: ${({ theme }) => theme.space(1.5)} 0 0;
  font-size: 0.8125rem;
  color: ${({ theme }) => theme.colors.textMuted};
`;

/** Why the API ended the session (the sign-in page shows it until the member signs in again). */
export const SignedOutNotice = styled.p<{ $tone?: 'danger' | 'info' }>`
  margin: 0;
  padding: ${({ theme }) => theme.space(3)};
  border: 1px solid
    ${({ theme, $tone = 'danger' }) => ($tone === 'info' ? theme.colors.border : theme.colors.danger)};
  border-radius: ${({ theme }) => theme.radius.md};
  color: ${({ theme, $tone = 'danger' }) => ($tone === 'info' ? theme.colors.text : theme.colors.danger)};
  background: ${({ theme }) => theme.colors.surfaceMuted};
  font-size: 0.875rem;
`;

/** The centred card of the signed-out screens. */
export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
}) {
  return (
    <Screen>
      <Card aria-labelledby="auth-title">
        <div>
          <h1 id="auth-title">{title}</h1>
          {subtitle && <Muted style={{ textAlign: 'left', marginTop: 4 }}>{subtitle}</Muted>}
        </div>
        {children}
      </Card>
    </Screen>
  );
}
