export {
  SessionProvider,
  useSession,
  SESSION_ENDED_MESSAGE,
  SESSION_ENDED_TITLE,
} from './session-provider';
export type { Session, SessionStatus } from './session-provider';
