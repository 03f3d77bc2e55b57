import type { AuthUser } from '../../platform/auth';

/** Who may do what to a user account: the one place these rules live. */
export const userPolicy = {
  canEditProfile(actor: AuthUser, targetUserId: number): boolean {
    return actor.id === targetUserId;
  },
  canFollow(actor: AuthUser, targetUserId: number): boolean {
    return actor.id !== targetUserId;
  },
};
