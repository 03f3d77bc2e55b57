import { forwardRef, useId, type InputHTMLAttributes } from 'react';
import styled from 'styled-components';
import { fieldStyles } from './field-styles';

const Wrapper = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(1.5)};

  label {
    font-size: 0.875rem;
    font-weight: 600;
  }
  input {
    ${fieldStyles}
    height: 40px;
  }
`;

const ErrorText = styled.p`
  margin: 0;
  font-size: 0.8125rem;
  color: ${({ theme }) => theme.colors.danger};
`;

/** A labelled input with its validation message wired through aria-describedby. */
export const TextField = forwardRef<
  HTMLInputElement,
  InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string }
>(function TextField({ label, error, id, ...rest }, ref) {
  const fallbackId = useId();
  const inputId = id ?? fallbackId;
  const errorId = `${inputId}-error`;
  return (
    <Wrapper>
      <label htmlFor={inputId}>{label}</label>
      <input
        ref={ref}
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...rest}
      />
      {error && <ErrorText id={errorId}>{error}</ErrorText>}
    </Wrapper>
  );
});
