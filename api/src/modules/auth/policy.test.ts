import type { ParameterizedContext } from 'koa';
import type { AppState, AuthUser } from '../../platform/auth';
import { HttpError } from '../../platform/errors';
import { accessPolicy, requireAdmin } from './policy';

const member: AuthUser = { id: 5, name: 'M', email: 'm@campus.edu', roles: ['member'] };
const admin: AuthUser = { id: 107, name: 'A', email: 'a@campus.edu', roles: ['member', 'admin'] };

/** Runs `requireAdmin` for `user`: whether it let the request through, and the headers it set. */
async function runRequireAdmin(user: AuthUser | undefined) {
  const headers: Record<string, string> = {};
  const ctx = {
    state: { user },
    set: (name: string, value: string) => {
      headers[name] = value;
    },
  } as unknown as ParameterizedContext<AppState>;
  let passed = false;
  await requireAdmin(ctx, async () => {
    passed = true;
  });
  return { passed, headers };
}

describe('accessPolicy', () => {
  test('when a caller holds the admin role, then they are the administrator; a member is not', () => {
    expect(accessPolicy.isAdmin(admin)).toBe(true);
    expect(accessPolicy.isAdmin(member)).toBe(false);
  });
});

describe('requireAdmin', () => {
  test('when the administrator calls, then the request goes through and is not cacheable', async () => {
    expect(await runRequireAdmin(admin)).toEqual({
      passed: true,
      headers: { 'Cache-Control': 'no-store' },
    });
  });

  test('when a member calls, then it is a 403 and nothing runs', async () => {
    const result = runRequireAdmin(member);
    await expect(result).rejects.toBeInstanceOf(HttpError);
    await expect(result).rejects.toMatchObject({ status: 403, message: 'Admin access required' });
  });

  test('when nobody is signed in, then it is a 401', async () => {
    await expect(runRequireAdmin(undefined)).rejects.toMatchObject({ status: 401 });
  });
});
