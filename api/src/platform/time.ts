import { TZDate } from '@date-fns/tz';
import { format, startOfDay, startOfMonth, subDays } from 'date-fns';

/** Throws unless `tz` is an IANA time zone this runtime knows (checked once, at start-up). */
export function assertTimeZone(tz: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    throw new Error(`APP_TIMEZONE must be an IANA time zone such as Europe/Berlin, got "${tz}"`);
  }
  return tz;
}

/** Midnight of `now`'s calendar day in `tz`, as an instant. */
export function startOfDayIn(tz: string, now: Date = new Date()): Date {
  return new Date(startOfDay(new TZDate(now.getTime(), tz)).getTime());
}

/** Midnight of the first day of `now`'s month in `tz`. */
export function startOfMonthIn(tz: string, now: Date = new Date()): Date {
  return new Date(startOfMonth(new TZDate(now.getTime(), tz)).getTime());
}

/**
 * The last `days` calendar days in `tz` ending today, oldest first, as `yyyy-MM-dd` keys, and
 * the instant the oldest one starts.
 */
export function lastDays(tz: string, days: number, now: Date = new Date()) {
  const today = startOfDay(new TZDate(now.getTime(), tz));
  const keys: string[] = [];
  for (let i = days - 1; i >= 0; i--) keys.push(format(subDays(today, i), 'yyyy-MM-dd'));
  return { keys, since: new Date(subDays(today, days - 1).getTime()) };
}

/** Midnight starting `day` (`yyyy-MM-dd`) in `tz`, `plusDays` later, as an instant. */
export function dayStartIn(tz: string, day: string, plusDays = 0): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(new TZDate(y, m - 1, d + plusDays, tz).getTime());
}
