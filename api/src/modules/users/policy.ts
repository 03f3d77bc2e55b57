import type { Role } from '@campus/contracts';
import type { AuthUser } from '../../platform/auth';

/** Who may do what to a user account, and who holds which role: the one place these rules live. */
export const userPolicy = {
  /** Every member; the one administrator (`ADMIN_USER_ID`) is also `admin`. */
  rolesOf(userId: number, adminUserId: number): Role[] {
    return userId === adminUserId ? ['member', 'admin'] : ['member'];
  },
  canEditProfile(actor: AuthUser, targetUserId: number): boolean {
    return actor.id === targetUserId;
  },
  canFollow(actor: AuthUser, targetUserId: number): boolean {
    return actor.id !== targetUserId;
  },
};
