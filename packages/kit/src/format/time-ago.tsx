import styled from 'styled-components';
import { MONTHS, WEEKDAYS } from './calendar';
import { useMinuteClock } from './minute-clock';
import { relativeTime } from './relative-time';

/**
 * "Tuesday, November 24, 2026 at 1:05 AM": the exact moment in the reader's time zone, as hovering
 * or a reader says it. What `Intl.DateTimeFormat('en', { dateStyle: 'full', timeStyle: 'short' })`
 * says, written out from the Date's local fields (calendar.ts says why). The tests compare it with
 * the Intl formatter in several time zones, across daylight-saving changes.
 */
export function exactTime(date: string | number | Date): string {
  const value = new Date(date);
  if (Number.isNaN(value.getTime())) return '';
  const hours = value.getHours();
  const minutes = String(value.getMinutes()).padStart(2, '0');
  const day = `${WEEKDAYS[value.getDay()]}, ${MONTHS[value.getMonth()]} ${value.getDate()}, ${value.getFullYear()}`;
  return `${day} at ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
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
