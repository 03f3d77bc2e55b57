import styled from 'styled-components';
import { useMinuteClock } from './minute-clock';
import { relativeTime } from './relative-time';

const exactFormat = new Intl.DateTimeFormat('en', { dateStyle: 'full', timeStyle: 'short' });

/** "Tuesday, November 24, 2026 at 1:05 AM": the exact moment, as hovering or a reader says it. */
export function exactTime(date: string | number | Date): string {
  const value = new Date(date);
  return Number.isNaN(value.getTime()) ? '' : exactFormat.format(value);
}

const ScreenReaderOnly = styled.span`
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
`;

/**
 * A relative time ("5 minutes ago") that stays true while the page is open (redrawn every
 * minute), in a `<time datetime>` whose exact date and time show on hover (title) and are read
 * to screen readers after the relative one.
 */
export function TimeAgo({ date, className }: { date: string; className?: string }) {
  useMinuteClock(); // redraws this time every minute
  const exact = exactTime(date);
  return (
    <time dateTime={date} title={exact} className={className}>
      {relativeTime(date)}
      {exact && <ScreenReaderOnly> ({exact})</ScreenReaderOnly>}
    </time>
  );
}
