export { UserRow } from './user-row';
