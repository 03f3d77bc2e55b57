import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import styled from 'styled-components';
import { MIN_TOUCH_TARGET_PX } from '@campus/kit/theme';

export interface TabItem<V extends string> {
  value: V;
  label: ReactNode;
}

const List = styled.div`
  display: flex;
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
`;

const Tab = styled.button`
  flex: 1;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: ${({ theme }) => theme.space(2)};
  min-height: ${MIN_TOUCH_TARGET_PX}px;
  padding: ${({ theme }) => theme.space(3)};
  border: 0;
  border-bottom: 2px solid transparent;
  background: transparent;
  font: inherit;
  font-weight: 600;
  color: ${({ theme }) => theme.colors.textMuted};
  cursor: pointer;

  &[aria-selected='true'] {
    color: ${({ theme }) => theme.colors.text};
    border-bottom-color: ${({ theme }) => theme.colors.primary};
  }
`;

/**
 * A tab list (WAI-ARIA tabs pattern: arrow keys, Home and End move between tabs). `onSelect` also
 * fires for the tab that is already active, so a feed can scroll to the top on a second click.
 * The panel is the caller's: give it `id={`${idPrefix}-panel`}` and role="tabpanel".
 */
export function Tabs<V extends string>({
  items,
  value,
  onSelect,
  label,
  idPrefix = 'tabs',
}: {
  items: readonly TabItem<V>[];
  value: V;
  onSelect: (value: V) => void;
  label: string;
  idPrefix?: string;
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const last = items.length - 1;
    const target =
      event.key === 'ArrowRight'
        ? (index + 1) % items.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + items.length) % items.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (target === null) return;
    event.preventDefault();
    const item = items[target];
    if (!item) return;
    refs.current[target]?.focus();
    onSelect(item.value);
  };

  return (
    <List role="tablist" aria-label={label}>
      {items.map((item, index) => {
        const selected = item.value === value;
        return (
          <Tab
            key={item.value}
            ref={(node) => {
              refs.current[index] = node;
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-${item.value}`}
            aria-selected={selected}
            aria-controls={`${idPrefix}-panel`}
            tabIndex={selected ? 0 : -1}
            onClick={() => onSelect(item.value)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {item.label}
          </Tab>
        );
      })}
    </List>
  );
}
