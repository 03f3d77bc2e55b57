import { forwardRef, useId, type InputHTMLAttributes } from 'react';
import styled from 'styled-components';
import { MIN_TOUCH_TARGET_PX, mediaMobile } from '@campus/kit/theme';

const Label = styled.label`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
  font-size: 0.875rem;
  cursor: pointer;

  input {
    width: 16px;
    height: 16px;
    accent-color: ${({ theme }) => theme.colors.primary};
  }
  /* On a phone the label (which toggles the box) is a fingertip's target (issue 41). */
  ${mediaMobile} {
    min-height: ${MIN_TOUCH_TARGET_PX}px;
    min-width: ${MIN_TOUCH_TARGET_PX}px;
  }
`;

/** A native checkbox with its label. */
export const Checkbox = forwardRef<
  HTMLInputElement,
  Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { label: string }
>(function Checkbox({ label, id, ...rest }, ref) {
  const fallbackId = useId();
  const inputId = id ?? fallbackId;
  return (
    <Label htmlFor={inputId}>
      <input ref={ref} id={inputId} type="checkbox" {...rest} />
      {label}
    </Label>
  );
});
