import { handleFromEmail, relativeTime, truncate } from '@campus/kit/format';

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
});

describe('truncate', () => {
  it('cuts at the limit and appends ...', () => {
    expect(truncate('abcdef', 3)).toBe('abc...');
    expect(truncate('abc', 3)).toBe('abc');
  });
});
