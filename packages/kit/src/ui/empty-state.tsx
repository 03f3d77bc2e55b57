import type { ReactNode } from 'react';
import styled from 'styled-components';

const Box = styled.div`
  display: grid;
  justify-items: center;
  gap: ${({ theme }) => theme.space(2)};
  padding: ${({ theme }) => theme.space(12)} ${({ theme }) => theme.space(4)};
  text-align: center;
  color: ${({ theme }) => theme.colors.textMuted};

  h2 {
    margin: 0;
    font-size: 1.125rem;
    color: ${({ theme }) => theme.colors.text};
  }
  p {
    margin: 0;
  }
`;

/** What a list shows when it has nothing: an optional icon, a title, a line of text, an action. */
export function EmptyState({
  icon,
  title,
  description,
  action,
}: {
  icon?: ReactNode;
  title?: string;
  description?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Box>
      {icon && <span aria-hidden="true">{icon}</span>}
      {title && <h2>{title}</h2>}
      {description && <p>{description}</p>}
      {action}
    </Box>
  );
}
