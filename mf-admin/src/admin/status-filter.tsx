import { useId } from 'react';
import styled from 'styled-components';
import { mediaMobile, MIN_TOUCH_TARGET_PX } from '@campus/kit/theme';

const Field = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
  font-size: 0.875rem;

  label {
    font-weight: 600;
  }
  select {
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
  }
`;

/** A labelled select of the list's statuses. */
export function StatusFilter<S extends string>({
  label = 'Status',
  value,
  options,
  onChange,
}: {
  label?: string;
  value: S;
  options: readonly { value: S; label: string }[];
  onChange: (value: S) => void;
}) {
  const id = useId();
  return (
    <Field>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as S)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Field>
  );
}
