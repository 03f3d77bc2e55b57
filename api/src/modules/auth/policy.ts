import type { Middleware } from 'koa';
import { currentUser, type AppState, type AuthUser } from '../../platform/auth';
import { forbidden } from '../../platform/errors';

/** What a caller may reach by role. Roles themselves are decided in users/policy.ts. */
export const accessPolicy = {
  isAdmin(user: Pick<AuthUser, 'roles'>): boolean {
    return user.roles.includes('admin');
  },
};

/** For every admin route, after `requireAuth`: anyone but the administrator gets a 403. */
export const requireAdmin: Middleware<AppState> = async (ctx, next) => {
  if (!accessPolicy.isAdmin(currentUser(ctx.state))) throw forbidden('Admin access required');
  // Admin data is never kept by a browser or a shared cache.
  ctx.set('Cache-Control', 'no-store');
  return next();
};
