import type { Role } from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';

/**
 * Who may do what to a user account, who holds which role, and who the one administrator is
 * (ADMIN_USER_ID): the one place these rules live. Every other module asks here.
 */
export const userPolicy = {
  /** The one administrator's user id. */
  administratorId(ctx: Pick<AppContext, 'config'>): number {
    return ctx.config.adminUserId;
  },
  isAdministrator(ctx: Pick<AppContext, 'config'>, userId: number): boolean {
    return userId === ctx.config.adminUserId;
  },
  /** Every member; the one administrator is also `admin`. */
  rolesOf(ctx: Pick<AppContext, 'config'>, userId: number): Role[] {
    return userPolicy.isAdministrator(ctx, userId) ? ['member', 'admin'] : ['member'];
  },
  canEditProfile(actor: AuthUser, targetUserId: number): boolean {
    return actor.id === targetUserId;
  },
  canFollow(actor: AuthUser, targetUserId: number): boolean {
    return actor.id !== targetUserId;
  },
};
