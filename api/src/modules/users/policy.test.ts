import type { AuthUser } from '../../platform/auth';
import { userPolicy } from './policy';

const member: AuthUser = { id: 5, name: 'M', email: 'm@campus.edu', roles: ['member'] };
const admin: AuthUser = { id: 107, name: 'A', email: 'a@campus.edu', roles: ['member', 'admin'] };

describe('userPolicy', () => {
  test('when members edit profiles, then only their own is allowed (the admin is no exception)', () => {
    expect(userPolicy.canEditProfile(member, 5)).toBe(true);
    expect(userPolicy.canEditProfile(member, 6)).toBe(false);
    expect(userPolicy.canEditProfile(admin, 5)).toBe(false);
  });

  test('when members follow, then anyone but themselves is allowed', () => {
    expect(userPolicy.canFollow(member, 6)).toBe(true);
    expect(userPolicy.canFollow(member, 5)).toBe(false);
  });

  test('when roles are decided, then the configured administrator is member and admin, anyone else member only', () => {
    const adminIs = (adminUserId: number) => ({ config: { adminUserId } }) as never;
    expect(userPolicy.rolesOf(adminIs(107), 107)).toEqual(['member', 'admin']);
    expect(userPolicy.rolesOf(adminIs(107), 5)).toEqual(['member']);
    expect(userPolicy.rolesOf(adminIs(1), 107)).toEqual(['member']);
    expect(userPolicy.rolesOf(adminIs(1), 1)).toEqual(['member', 'admin']);
  });
});
