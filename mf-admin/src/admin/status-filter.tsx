import { useId } from 'react';
import { FilterField } from './control-style';

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
    <FilterField>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as S)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FilterField>
  );
}
