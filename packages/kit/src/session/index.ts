export { SessionProvider, useSession } from './session-provider';
export type { Session, SessionStatus } from './session-provider';
export { ADMIN_USER_ID_DEFAULT, isAdmin } from './admin';
