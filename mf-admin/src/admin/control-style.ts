import styled, { css } from 'styled-components';
import { mediaMobile, MIN_TOUCH_TARGET_PX } from '@campus/kit/theme';

/**
 * The admin pages' one-line controls (a status select, a date or search input, a dialog's
 * select): 36 px tall, a fingertip's 44 px on a phone (issue 41).
 */
export const controlStyle = css`
  height: 36px;
  ${mediaMobile} {
    height: ${MIN_TOUCH_TARGET_PX}px;
  }
  padding: 0 ${({ theme }) => theme.space(2)};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme }) => theme.colors.surface};
  color: inherit;
  font: inherit;
`;

/** A filter of a list's toolbar: its label and its control on one line. */
export const FilterField = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
  font-size: 0.875rem;

  label {
    font-weight: 600;
  }
  select,
  input {
    ${controlStyle}
  }
`;
