import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import type { AccountCache } from './account-cache';
import { usersOf } from './model';
import { userPolicy } from './policy';

/**
 * The caller behind a token: only existing, verified accounts may act. Records the caller's
 * activity (for DAU/MAU) at most once per ACTIVITY_THROTTLE_MS, so most requests write nothing
 * (activity is bookkeeping: it tells no event). `activityDueAt`: when the activity is to be
 * recorded again (the caller may be remembered until then).
 */
export async function authenticateUser(
  ctx: AppContext,
  id: number,
): Promise<(AuthUser & { activityDueAt: number }) | undefined> {
  const User = usersOf(ctx);
  const throttle = ctx.config.activityThrottleMs;
  const user = await User.findById(id, {
    name: 1,
    email: 1,
    isVerified: 1,
    lastActiveAt: 1,
    tokensValidAfter: 1,
    suspendedAt: 1,
  }).lean();
  if (!user || !user.isVerified) return undefined;
  const now = ctx.clock.now();
  // A suspended account's tokens are refused with a message that says why (platform/auth.ts).
  if (user.suspendedAt) {
    return {
      id: user._id,
      name: user.name,
      email: user.email,
      roles: [],
      suspended: true,
      activityDueAt: now.getTime() + throttle,
    };
  }
  let lastActive = user.lastActiveAt?.getTime() ?? 0;
  if (now.getTime() - lastActive >= throttle) {
    await User.updateOne({ _id: id }, { $set: { lastActiveAt: now } });
    lastActive = now.getTime();
  }
  return {
    id: user._id,
    name: user.name,
    email: user.email,
    roles: userPolicy.rolesOf(ctx, user._id),
    sessionsValidAfter: user.tokensValidAfter?.getTime() ?? 0,
    activityDueAt: lastActive + throttle,
  };
}

/**
 * `authenticateUser` behind an account cache (the app's: a caller seen recently skips the
 * account lookup, a database round trip on every request; see AccountCache for how long and
 * what forgets). A caller is remembered until their activity is due to be recorded again, at most.
 */
export function createAuthenticator(
  ctx: AppContext,
  accounts: AccountCache,
): (id: number) => Promise<AuthUser | undefined> {
  return async (id) => {
    const hit = accounts.get(id);
    if (hit) return hit;
    const mark = accounts.mark();
    const found = await authenticateUser(ctx, id);
    if (!found) return undefined;
    const { activityDueAt, ...user } = found;
    accounts.set(user, mark, activityDueAt - ctx.clock.now().getTime());
    return user;
  };
}
