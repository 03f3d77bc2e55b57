import type { AuthUser } from '../../platform/auth';

/** Who may end an account: the one place this rule lives. */
export const accountPolicy = {
  /** Only one's own account, and never the administrator's (the platform needs one). */
  canDeleteAccount(actor: AuthUser, targetUserId: number, adminUserId: number): boolean {
    return actor.id === targetUserId && targetUserId !== adminUserId;
  },
};
