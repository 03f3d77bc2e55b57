import { handleFromEmail, monthDay, relativeTime, truncate } from '@campus/kit/format';

describe('handleFromEmail', () => {
  it('is @ and the part before the at-sign', () => {
    expect(handleFromEmail('jane.doe@campus.edu')).toBe('@jane.doe');
    expect(handleFromEmail('nobody')).toBe('@nobody');
  });
});

describe('relativeTime', () => {
  const now = new Date('2026-05-10T12:00:00Z');
  it.each([
    ['2026-05-10T11:59:30Z', 'just now'],
    ['2026-05-10T11:55:00Z', '5 minutes ago'],
    ['2026-05-10T09:00:00Z', '3 hours ago'],
    ['2026-05-09T12:00:00Z', 'yesterday'],
    ['2026-04-26T12:00:00Z', '2 weeks ago'],
    ['2026-02-01T12:00:00Z', '3 months ago'],
    ['2024-05-01T12:00:00Z', '2 years ago'],
  ])('%s is "%s"', (date, expected) => {
    expect(relativeTime(date, now)).toBe(expected);
  });

  it('is empty for an invalid date', () => {
    expect(relativeTime('not a date', now)).toBe('');
  });

  // relativeTime writes the English out instead of constructing Intl.RelativeTimeFormat (its
  // locale data cost 35-40 ms of each page load): it must say exactly what that formatter says.
  it.each([
    ['minute', 60],
    ['hour', 3600],
    ['day', 24 * 3600],
    ['week', 7 * 24 * 3600],
    ['month', 30 * 24 * 3600],
    ['year', 365 * 24 * 3600],
  ] as const)(
    'says what Intl.RelativeTimeFormat says, in the past and the future, in %ss',
    (unit, size) => {
      const intl = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
      // The counts this unit is used for (the next unit takes over above them), and large ones.
      const limit = { minute: 59, hour: 23, day: 6, week: 4, month: 12, year: 2500 }[unit];
      for (let count = 1; count <= limit; count += count < 30 ? 1 : 37) {
        for (const sign of [-1, 1]) {
          const date = new Date(now.getTime() + sign * count * size * 1000);
          expect(relativeTime(date, now)).toBe(intl.format(sign * count, unit));
        }
      }
    },
  );
});

describe('monthDay', () => {
  it('says what toLocaleDateString says, with and without the year, on every day of two years', () => {
    for (let day = new Date(2026, 0, 1); day.getFullYear() < 2028; day.setDate(day.getDate() + 1)) {
      expect(monthDay(day)).toBe(
        day.toLocaleDateString('en-US', { month: 'short', day: 'numeric' }),
      );
      expect(monthDay(day, { year: true })).toBe(
        day.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' }),
      );
    }
  });
});

describe('truncate', () => {
  it('cuts at the limit and appends ...', () => {
    expect(truncate('abcdef', 3)).toBe('abc...');
    expect(truncate('abc', 3)).toBe('abc');
  });
});
