import styled from 'styled-components';
import { mediaMobile, MIN_TOUCH_TARGET_PX } from '@campus/kit/theme';

/** One labelled field of the post search's filters: its label above its input. */
export const FilterField = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(1)};
  font-size: 0.875rem;

  label {
    font-weight: 600;
  }
  input {
    height: 36px;
    padding: 0 ${({ theme }) => theme.space(2)};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radius.md};
    font: inherit;
  }
  /* A fingertip's target on a phone (issue 41). */
  ${mediaMobile} {
    input {
      height: ${MIN_TOUCH_TARGET_PX}px;
    }
  }
`;
