import { act, render, screen } from '@testing-library/react';
import { CLOCK_TICK_MS, TimeAgo, exactTime } from '@campus/kit/format';

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
