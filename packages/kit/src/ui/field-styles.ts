import { css } from 'styled-components';
import { MIN_TOUCH_TARGET_PX, mediaMobile } from '@campus/kit/theme';

export const fieldStyles = css`
  width: 100%;
  padding: ${({ theme }) => theme.space(2)} ${({ theme }) => theme.space(3)};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  font: inherit;
  font-size: 0.9375rem;

  &:disabled {
    opacity: 0.6;
    cursor: not-allowed;
  }
  &[aria-invalid='true'] {
    border-color: ${({ theme }) => theme.colors.danger};
  }
  /* A fingertip's target on a phone (issue 41). */
  ${mediaMobile} {
    min-height: ${MIN_TOUCH_TARGET_PX}px;
  }
`;
