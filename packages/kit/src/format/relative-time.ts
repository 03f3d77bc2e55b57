type Unit = 'year' | 'month' | 'week' | 'day' | 'hour' | 'minute';

const UNITS: [Unit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/**
 * The words `Intl.RelativeTimeFormat('en', { numeric: 'auto' })` uses for one unit back and one
 * unit ahead ("yesterday", "next week"); minutes and hours have none and stay numeric.
 */
const ONE_BACK: Partial<Record<Unit, string>> = {
  year: 'last year',
  month: 'last month',
  week: 'last week',
  day: 'yesterday',
};
const ONE_AHEAD: Partial<Record<Unit, string>> = {
  year: 'next year',
  month: 'next month',
  week: 'next week',
  day: 'tomorrow',
};

/** 1234 as "1,234", as the English number format groups it. */
function grouped(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * What `Intl.RelativeTimeFormat('en', { numeric: 'auto' }).format(count, unit)` says for a whole
 * `count` other than 0, written out (calendar.ts says why). The tests compare every unit and
 * count with the Intl formatter itself.
 */
function formatUnits(count: number, unit: Unit): string {
  if (count === -1 && ONE_BACK[unit]) return ONE_BACK[unit];
  if (count === 1 && ONE_AHEAD[unit]) return ONE_AHEAD[unit];
  const size = Math.abs(count);
  const phrase = `${grouped(size)} ${unit}${size === 1 ? '' : 's'}`;
  return count < 0 ? `${phrase} ago` : `in ${phrase}`;
}

/** "just now", "5 minutes ago", "yesterday", "3 months ago" (English, like the rest of the UI). */
export function relativeTime(date: string | number | Date, now: Date = new Date()): string {
  const then = new Date(date).getTime();
  if (Number.isNaN(then)) return '';
  const seconds = Math.round((then - now.getTime()) / 1000);
  if (Math.abs(seconds) < 60) return 'just now';
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return formatUnits(Math.trunc(seconds / size), unit);
  }
  return 'just now';
}
