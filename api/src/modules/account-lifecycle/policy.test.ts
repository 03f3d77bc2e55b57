import type { AuthUser } from '../../platform/auth';
import { accountPolicy } from './policy';

const member: AuthUser = { id: 5, name: 'M', email: 'm@campus.edu', roles: ['member'] };
const admin: AuthUser = { id: 107, name: 'A', email: 'a@campus.edu', roles: ['member', 'admin'] };

describe('accountPolicy', () => {
  test('when a member deletes an account, then only their own is allowed', () => {
    expect(accountPolicy.canDeleteAccount(member, 5, 107)).toBe(true);
    expect(accountPolicy.canDeleteAccount(member, 6, 107)).toBe(false);
  });

  test('when the administrator deletes an account, then neither their own nor anyone else is allowed', () => {
    expect(accountPolicy.canDeleteAccount(admin, 107, 107)).toBe(false);
    expect(accountPolicy.canDeleteAccount(admin, 5, 107)).toBe(false);
  });

  test('when ADMIN_USER_ID names someone else, then the former admin id is an ordinary member', () => {
    expect(accountPolicy.canDeleteAccount(admin, 107, 1)).toBe(true);
  });
});
