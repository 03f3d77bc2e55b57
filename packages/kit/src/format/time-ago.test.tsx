import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { act, render, screen } from '@testing-library/react';
import { CLOCK_TICK_MS, TimeAgo, exactTime } from '@campus/kit/format';

interface ZoneCheck {
  /** 2026-01-01T00:00:00Z as exactTime writes it there: proof the zone was applied. */
  first: string;
  /** The moments where exactTime differs from Intl.DateTimeFormat, as [exactTime, Intl]. */
  differences: [string, string][];
}

/**
 * Runs `exactTime` in a Node process of its own (Jest gives each test file a copy of
 * process.env, so a test cannot change the zone its Dates are read in), once per time zone.
 */
function compareWithIntl(zones: string[]): Record<string, ZoneCheck> {
  const script = `
    import { exactTime } from ${JSON.stringify(path.join(__dirname, 'time-ago.tsx'))};
    const checks = {};
    for (const zone of ${JSON.stringify(zones)}) {
      process.env.TZ = zone;
      const intl = new Intl.DateTimeFormat('en', { dateStyle: 'full', timeStyle: 'short' });
      const start = Date.parse('2026-01-01T00:00:00Z');
      const differences = [];
      // Every 97 minutes for two years: every hour and weekday, both sides of noon and midnight,
      // every month and each daylight-saving change.
      for (let time = start; time < start + 2 * 366 * 86_400_000; time += 97 * 60_000) {
        if (exactTime(time) !== intl.format(time)) differences.push([exactTime(time), intl.format(time)]);
      }
      checks[zone] = { first: exactTime(start), differences };
    }
    process.stdout.write(JSON.stringify(checks));
  `;
  const run = spawnSync(process.execPath, [require.resolve('tsx/cli'), '--eval', script], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as Record<string, ZoneCheck>;
}

describe('exactTime', () => {
  // exactTime writes the date out instead of constructing an Intl formatter (its locale data cost
  // 35-40 ms of each page load): it must say exactly what that formatter says, in the reader's zone.
  it('says what Intl.DateTimeFormat says, in five time zones, across two years and their clock changes', () => {
    const firsts: Record<string, string> = {
      UTC: 'Thursday, January 1, 2026 at 12:00 AM',
      'America/New_York': 'Wednesday, December 31, 2025 at 7:00 PM',
      'Europe/Berlin': 'Thursday, January 1, 2026 at 1:00 AM',
      'Asia/Kolkata': 'Thursday, January 1, 2026 at 5:30 AM',
      'Pacific/Chatham': 'Thursday, January 1, 2026 at 1:45 PM',
    };
    const checks = compareWithIntl(Object.keys(firsts));
    for (const [zone, first] of Object.entries(firsts)) {
      expect({ zone, ...checks[zone] }).toEqual({ zone, first, differences: [] });
    }
  });

  it('is empty for an invalid date', () => {
    expect(exactTime('not a date')).toBe('');
  });
});

describe('TimeAgo', () => {
  afterEach(() => jest.useRealTimers());

  it('is a <time datetime> with the exact moment as its title and for screen readers', () => {
    const date = '2026-05-10T09:30:00.000Z';
    render(<TimeAgo date={date} />);
    const time = screen.getByTitle(exactTime(date));
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('datetime', date);
    expect(exactTime(date)).toMatch(/2026/);
    expect(time).toHaveTextContent(`(${exactTime(date)})`);
  });

  it('moves on while the page stays open, with one clock for every time shown', () => {
    jest.useFakeTimers({ now: new Date('2026-05-10T12:00:00Z') });
    const date = new Date('2026-05-10T11:59:30Z').toISOString();
    render(
      <>
        <TimeAgo date={date} />
        <TimeAgo date={date} />
      </>,
    );
    expect(screen.getAllByText('just now')).toHaveLength(2);
    expect(jest.getTimerCount()).toBe(1);
    act(() => jest.advanceTimersByTime(2 * CLOCK_TICK_MS));
    expect(screen.getAllByText(/^2 minutes ago/)).toHaveLength(2);
  });

  it('stops its clock when no time is shown any more', () => {
    jest.useFakeTimers();
    const { unmount } = render(<TimeAgo date={new Date().toISOString()} />);
    expect(jest.getTimerCount()).toBe(1);
    unmount();
    expect(jest.getTimerCount()).toBe(0);
  });
});
