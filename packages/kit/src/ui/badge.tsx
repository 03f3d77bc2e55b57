import styled from 'styled-components';

/** A small pill of text: counts, "JD", "Admin Only". */
export const Badge = styled.span<{ $tone?: 'neutral' | 'primary' | 'danger' }>`
  display: inline-flex;
  align-items: center;
  min-width: 20px;
  height: 20px;
  padding: 0 ${({ theme }) => theme.space(1.5)};
  border-radius: ${({ theme }) => theme.radius.full};
  font-size: 0.75rem;
  font-weight: 600;
  justify-content: center;
  background: ${({ theme, $tone = 'neutral' }) =>
    $tone === 'primary'
      ? theme.colors.primary
      : $tone === 'danger'
        ? theme.colors.danger
        : theme.colors.surfaceMuted};
  color: ${({ theme, $tone = 'neutral' }) =>
    $tone === 'primary'
      ? theme.colors.onPrimary
      : $tone === 'danger'
        ? theme.colors.onDanger
        : theme.colors.text};
`;
