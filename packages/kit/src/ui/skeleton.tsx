import styled, { keyframes } from 'styled-components';

const pulse = keyframes`
  50% { opacity: 0.5; }
`;

/** A grey placeholder block shown while content loads; hidden from assistive technology. */
export const Skeleton = styled.div.attrs({ 'aria-hidden': true, 'data-skeleton': '' })<{
  $width?: string;
  $height?: string;
  $round?: boolean;
}>`
  width: ${({ $width = '100%' }) => $width};
  height: ${({ $height = '1rem' }) => $height};
  border-radius: ${({ theme, $round }) => ($round ? '50%' : theme.radius.md)};
  background: ${({ theme }) => theme.colors.skeleton};
  animation: ${pulse} 2s cubic-bezier(0.4, 0, 0.6, 1) infinite;
`;
