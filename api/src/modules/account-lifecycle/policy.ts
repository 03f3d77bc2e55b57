import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { userPolicy } from '../users/policy';

/** Who may end an account: the one place this rule lives. */
export const accountPolicy = {
  /** Only one's own account, and never the administrator's (the platform needs one). */
  canDeleteAccount(
    ctx: Pick<AppContext, 'config'>,
    actor: AuthUser,
    targetUserId: number,
  ): boolean {
    return actor.id === targetUserId && !userPolicy.isAdministrator(ctx, targetUserId);
  },
};
