import styled from 'styled-components';

/** A wide table scrolls sideways inside its own box on a phone. */
export const Scroll = styled.div`
  overflow-x: auto;
`;

/** The admin pages' compact table: a visually hidden caption, muted headers, long values wrap. */
export const DataTable = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: 0.875rem;

  caption {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
  }
  th,
  td {
    padding: ${({ theme }) => theme.space(2)};
    border-bottom: 1px solid ${({ theme }) => theme.colors.border};
    text-align: left;
    vertical-align: top;
  }
  th {
    font-size: 0.8125rem;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;
