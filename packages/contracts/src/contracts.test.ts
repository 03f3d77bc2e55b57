import {
  avatarUrlSchema,
  isInstitutionalEmail,
  loginRequestSchema,
  profileUpdateSchema,
  registerRequestSchema,
} from './index';

describe('isInstitutionalEmail', () => {
  const domains = ['campus.edu', 'mail.campus.edu', 'cu.edu'];

  test('when the domain is exactly one of the list (any case), then it is institutional', () => {
    expect(isInstitutionalEmail('a@campus.edu', domains)).toBe(true);
    expect(isInstitutionalEmail('a@MAIL.Campus.edu', domains)).toBe(true);
    expect(isInstitutionalEmail('a@cu.edu', domains)).toBe(true);
  });

  test('when the domain only looks similar, then it is not', () => {
    for (const email of [
      'a@evilcampus.edu',
      'a@campus.edu.evil.com',
      'campus.edu@gmail.com',
      '@campus.edu',
      'a@x.cu.edu',
    ]) {
      expect(isInstitutionalEmail(email, domains)).toBe(false);
    }
  });
});

describe('avatarUrlSchema', () => {
  test('when the URL is http(s), an API upload path or empty, then it is accepted', () => {
    for (const url of [
      'https://x.org/a.png',
      'http://localhost:4000/uploads/a.webp',
      '/uploads/0123456789abcdef0123456789abcdef.webp',
      '',
    ]) {
      expect(avatarUrlSchema.safeParse(url).success).toBe(true);
    }
  });

  test('when the URL has another scheme, then it is refused', () => {
    for (const url of [
      'javascript:alert(1)',
      'data:image/png;base64,AA',
      'file:///etc/passwd',
      'blob:https://x.org/1',
      '/uploads/../secret',
    ]) {
      expect(avatarUrlSchema.safeParse(url).success).toBe(false);
    }
  });
});

describe('request schemas', () => {
  test('when a registration is parsed, then the name and e-mail are normalised and the password is left as typed', () => {
    expect(
      registerRequestSchema.parse({
        name: ' Ada ',
        email: ' Ada@Campus.EDU ',
        password: ' spaced  ',
      }),
    ).toEqual({
      name: 'Ada',
      email: 'ada@campus.edu',
      password: ' spaced  ',
    });
  });

  test('when unknown fields are sent, then the payload is refused', () => {
    expect(
      loginRequestSchema.safeParse({ email: 'a@campus.edu', password: 'x', admin: true }).success,
    ).toBe(false);
    expect(profileUpdateSchema.safeParse({ name: 'a', isVerified: true }).success).toBe(false);
  });

  test('when the profile form breaks a rule, then the spec message is given', () => {
    const message = (input: unknown) =>
      profileUpdateSchema.safeParse(input).error?.issues[0]?.message;
    expect(message({ name: '' })).toBe('Name is required');
    expect(message({ name: 'x'.repeat(101) })).toBe('Name must be less than 100 characters');
    expect(message({ name: 'x', bio: 'x'.repeat(501) })).toBe(
      'Bio must be less than 500 characters',
    );
  });
});
