import styled from 'styled-components';

/**
 * Where a remote dialog's error view appears if its remote cannot be reached (the dialog itself
 * portals out): a card centred over the page, `at` 96 px from its top or bottom edge. The
 * composer (app-layout.tsx) and the first run (first-run-host.tsx) use it.
 */
export const FloatingRemoteHost = styled.div<{ $at: 'top' | 'bottom' }>`
  position: fixed;
  left: 50%;
  ${({ $at }) => $at}: 96px;
  z-index: 50;
  transform: translateX(-50%);
  width: min(420px, calc(100vw - 32px));

  &:has([data-testid='remote-error']) {
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radius.lg};
    background: ${({ theme }) => theme.colors.surface};
    box-shadow: ${({ theme }) => theme.shadow.lg};
  }

  [data-testid='remote-error'] {
    padding: ${({ theme }) => theme.space(4)};
  }
`;
