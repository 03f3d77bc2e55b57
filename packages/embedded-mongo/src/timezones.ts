/**
 * mingo's date operators only understand "+hh:mm"-style offsets and single-slash Olson names
 * ("Europe/Paris"), while mongod also accepts "UTC", "GMT" and the other fixed-offset zone names
 * ("Etc/UTC", "Etc/GMT+5"...). Before an expression reaches mingo, the literal `timezone` of
 * every date operator is rewritten to the equivalent offset. Documents are never touched: only
 * the arguments of date operators are, and nothing under `$literal`.
 */
import { isPlainObject, type Doc } from './values';

const DATE_OPERATORS = new Set([
  '$dateToString',
  '$dateToParts',
  '$dateFromString',
  '$dateFromParts',
  '$dateTrunc',
  '$dateAdd',
  '$dateSubtract',
  '$dateDiff',
  '$year',
  '$month',
  '$dayOfMonth',
  '$dayOfWeek',
  '$dayOfYear',
  '$hour',
  '$minute',
  '$second',
  '$millisecond',
  '$week',
  '$isoWeek',
  '$isoWeekYear',
  '$isoDayOfWeek',
]);

const UTC_NAMES = new Set(
  ['UTC', 'GMT', 'Z', 'UCT', 'Zulu', 'Universal', 'Greenwich', 'GMT0', 'GMT+0', 'GMT-0'].flatMap(
    (n) => [n, `Etc/${n}`],
  ),
);

/** The offset mingo understands for a zone name mongod accepts, or the name unchanged. */
export function normalizeTimezone(tz: string): string {
  if (UTC_NAMES.has(tz)) return '+00:00';
  // POSIX style: Etc/GMT+5 is five hours *behind* UTC.
  const etc = /^Etc\/GMT([+-])(\d{1,2})$/.exec(tz);
  if (etc) {
    const hours = Number(etc[2]);
    if (hours <= 14) return `${etc[1] === '+' ? '-' : '+'}${String(hours).padStart(2, '0')}:00`;
  }
  return tz;
}

/** A copy of an expression / pipeline / filter with date operators' timezones normalized. */
export function normalizeTimezones<T>(value: T): T {
  return walk(value) as T;
}

function walk(v: unknown): unknown {
  if (Array.isArray(v)) {
    let changed = false;
    const out = v.map((x) => {
      const y = walk(x);
      if (y !== x) changed = true;
      return y;
    });
    return changed ? out : v;
  }
  if (!isPlainObject(v)) return v;
  let out: Doc | undefined;
  for (const [k, x] of Object.entries(v)) {
    if (k === '$literal') continue;
    let y = walk(x);
    if (DATE_OPERATORS.has(k) && isPlainObject(y) && typeof y.timezone === 'string') {
      const tz = normalizeTimezone(y.timezone);
      if (tz !== y.timezone) y = { ...y, timezone: tz };
    }
    if (y !== x) {
      out ??= { ...v };
      out[k] = y;
    }
  }
  return out ?? v;
}
