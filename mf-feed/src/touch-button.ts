import styled from 'styled-components';
import { mediaMobile } from '@campus/kit/theme';
import { Button } from '@campus/kit/ui';

/**
 * The kit's Button, at least 44 x 44 px on a phone (WCAG 2.5.5; issue 41): its small and medium
 * sizes (32 and 40 px tall) suit a pointer, not a fingertip. The look is the Button's.
 */
export const TouchButton = styled(Button)`
  ${mediaMobile} {
    min-width: 44px;
    min-height: 44px;
  }
`;
