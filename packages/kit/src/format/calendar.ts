// English calendar names, as the UI writes dates without Intl: the first Intl formatter a page
// constructs loads the browser's locale data (35-40 ms of main-thread CPU in Chromium, more on a
// slow CPU) before anything it formats is drawn (BENCHMARKS.md, issue 22). The tests compare every
// function here with the Intl formatter it stands for.

export const WEEKDAYS = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
];

export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * "May 3", or "Nov 22, 2026" with `year`: the date's local month and day as
 * `toLocaleDateString('en-US', { month: 'short', day: 'numeric' })` (and `year: 'numeric'`) write them.
 */
export function monthDay(date: Date, { year = false }: { year?: boolean } = {}): string {
  const short = `${MONTHS[date.getMonth()]!.slice(0, 3)} ${date.getDate()}`;
  return year ? `${short}, ${date.getFullYear()}` : short;
}
