import { forwardRef, useId, useState, type TextareaHTMLAttributes } from 'react';
import styled from 'styled-components';
import { fieldStyles } from './field-styles';
import { visuallyHidden } from './visually-hidden';

const Wrapper = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(1.5)};

  label {
    font-size: 0.875rem;
    font-weight: 600;
  }
  textarea {
    ${fieldStyles}
    resize: vertical;
  }
`;

const Footer = styled.div`
  display: flex;
  justify-content: space-between;
  font-size: 0.8125rem;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const ErrorText = styled.span`
  color: ${({ theme }) => theme.colors.danger};
`;

type TextAreaProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  /** Hide the label visually (it stays for screen readers). */
  hideLabel?: boolean;
  error?: string;
  /** With `maxLength`, a live "n/max" counter is shown under the field. */
  showCounter?: boolean;
};

/** A labelled multi-line field; with a maxLength it counts characters as the user types. */
export const TextArea = forwardRef<HTMLTextAreaElement, TextAreaProps>(function TextArea(
  {
    label,
    hideLabel,
    error,
    showCounter = true,
    id,
    maxLength,
    onChange,
    value,
    defaultValue,
    ...rest
  },
  ref,
) {
  const fallbackId = useId();
  const fieldId = id ?? fallbackId;
  const counterId = `${fieldId}-counter`;
  const [uncontrolledLength, setUncontrolledLength] = useState(String(defaultValue ?? '').length);
  const length = value !== undefined ? String(value).length : uncontrolledLength;
  const counted = showCounter && maxLength !== undefined;
  return (
    <Wrapper>
      <label htmlFor={fieldId} style={hideLabel ? visuallyHidden : undefined}>
        {label}
      </label>
      <textarea
        ref={ref}
        id={fieldId}
        maxLength={maxLength}
        value={value}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={counted ? counterId : undefined}
        onChange={(event) => {
          setUncontrolledLength(event.target.value.length);
          onChange?.(event);
        }}
        {...rest}
      />
      {(counted || error) && (
        <Footer>
          <ErrorText role={error ? 'alert' : undefined}>{error}</ErrorText>
          {counted && (
            <span id={counterId} aria-live="polite">
              {length}/{maxLength}
            </span>
          )}
        </Footer>
      )}
    </Wrapper>
  );
});
