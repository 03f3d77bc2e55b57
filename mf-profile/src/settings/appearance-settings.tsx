import { useId } from 'react';
import styled from 'styled-components';
import type { ColorSchemePreference } from '@campus/kit/color-scheme';
import { MIN_TOUCH_TARGET_PX, mediaMobile, useColorSchemePreference } from '@campus/kit/theme';

const CHOICES: readonly { value: ColorSchemePreference; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

const Choices = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(2)};

  label {
    display: inline-flex;
    align-items: center;
    gap: ${({ theme }) => theme.space(2)};
    padding: ${({ theme }) => theme.space(2)} ${({ theme }) => theme.space(3)};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radius.md};
    font-size: 0.875rem;
    cursor: pointer;
  }
  label:has(input:checked) {
    border-color: ${({ theme }) => theme.colors.primary};
  }
  input {
    width: 16px;
    height: 16px;
    margin: 0;
    accent-color: ${({ theme }) => theme.colors.primary};
  }
  /* On a phone each label (which picks its choice) is a fingertip's target (issue 41). */
  ${mediaMobile} {
    label {
      min-height: ${MIN_TOUCH_TARGET_PX}px;
      min-width: ${MIN_TOUCH_TARGET_PX}px;
    }
  }
`;

/**
 * Settings, Appearance (issue 41, dark mode): follow the system's colour scheme, or always light
 * or dark. Kept on this device; every app on the page repaints at once (the kit's color-scheme).
 */
export function AppearanceSettings({ headingId }: { headingId: string }) {
  const [preference, setPreference] = useColorSchemePreference();
  const name = useId();
  return (
    <Choices role="radiogroup" aria-labelledby={headingId}>
      {CHOICES.map(({ value, label }) => (
        <label key={value}>
          <input
            type="radio"
            name={name}
            value={value}
            checked={preference === value}
            onChange={() => setPreference(value)}
          />
          {label}
        </label>
      ))}
    </Choices>
  );
}
