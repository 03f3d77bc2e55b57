import type { AuthUser } from '../../platform/auth';
import { accountPolicy } from './policy';

const member: AuthUser = { id: 5, name: 'M', email: 'm@campus.edu', roles: ['member'] };
const adminIs = (adminUserId: number) => ({ config: { adminUserId } }) as never;
const admin: AuthUser = { id: 107, name: 'A', email: 'a@campus.edu', roles: ['member', 'admin'] };

describe('accountPolicy', () => {
  test('when a member deletes an account, then only their own is allowed', () => {
    expect(accountPolicy.canDeleteAccount(adminIs(107), member, 5)).toBe(true);
    expect(accountPolicy.canDeleteAccount(adminIs(107), member, 6)).toBe(false);
  });

  test('when the administrator deletes an account, then neither their own nor anyone else is allowed', () => {
    expect(accountPolicy.canDeleteAccount(adminIs(107), admin, 107)).toBe(false);
    expect(accountPolicy.canDeleteAccount(adminIs(107), admin, 5)).toBe(false);
  });

  test('when ADMIN_USER_ID names someone else, then the former admin id is an ordinary member', () => {
    expect(accountPolicy.canDeleteAccount(adminIs(1), admin, 107)).toBe(true);
  });
});
