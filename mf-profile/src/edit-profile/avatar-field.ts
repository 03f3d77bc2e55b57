/**
 * The avatar picker's pieces, shared by the profile editor and the first run: a fieldset whose
 * visually hidden file input is labelled by a pill-shaped button (a fingertip's target on a
 * phone), and the hint and error lines under it.
 */
import styled from 'styled-components';
import { MIN_TOUCH_TARGET_PX, mediaMobile } from '@campus/kit/theme';

export const AvatarField = styled.fieldset`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(4)};
  align-items: center;
  margin: 0;
  padding: 0;
  border: 0;

  legend {
    margin-bottom: ${({ theme }) => theme.space(2)};
    font-size: 0.875rem;
    font-weight: 600;
  }
  input[type='file'] {
    position: absolute;
    width: 1px;
    height: 1px;
    opacity: 0;
  }
  input[type='file']:focus-visible + label {
    outline: 2px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
`;

export const FileButton = styled.label`
  display: inline-flex;
  align-items: center;
  height: 36px;
  padding: 0 ${({ theme }) => theme.space(3)};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.full};
  font-size: 0.8125rem;
  font-weight: 600;
  cursor: pointer;

  ${mediaMobile} {
    height: ${MIN_TOUCH_TARGET_PX}px;
  }
`;

export const Muted = styled.p`
  margin: 0;
  font-size: 0.8125rem;
  color: ${({ theme }) => theme.colors.textMuted};
`;

export const FileError = styled(Muted)`
  color: ${({ theme }) => theme.colors.danger};
`;
