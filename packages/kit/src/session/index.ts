export { SessionProvider, useSession } from './session-provider';
export type { Session, SessionStatus } from './session-provider';
