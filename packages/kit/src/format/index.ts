export { handleFromEmail } from './handle';
export { relativeTime } from './relative-time';
export { truncate } from './truncate';
export { TimeAgo, exactTime } from './time-ago';
export { monthDay } from './calendar';
export { useMinuteClock, CLOCK_TICK_MS } from './minute-clock';
