export { handleFromEmail } from './handle';
export { relativeTime } from './relative-time';
export { truncate } from './truncate';
