import { userPolicy } from './policy';

const member = { id: 5, name: 'M', email: 'm@campus.edu', isAdmin: false };
const admin = { id: 107, name: 'A', email: 'a@campus.edu', isAdmin: true };

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
});
