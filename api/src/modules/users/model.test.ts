import { useTestApp } from '../../../test/test-app';

const t = useTestApp();

const base = { name: 'N', password: 'hash' };

describe('indexes', () => {
  test('when two users are stored with the same e-mail in different case, then the unique index refuses the second', async () => {
    await t.models.User.create({ _id: 9001, email: 'Same@Campus.edu', ...base });
    await expect(
      t.models.User.create({ _id: 9002, email: 'same@campus.EDU', ...base }),
    ).rejects.toMatchObject({ code: 11000 });
    expect(await t.models.User.countDocuments({ email: 'same@campus.edu' })).toBe(1);
  });

  test('when the same follow pair is stored twice, then the unique index refuses the second', async () => {
    await t.models.Follow.create({ _id: 9001, followerId: 1, followingId: 2 });
    await expect(
      t.models.Follow.create({ _id: 9002, followerId: 1, followingId: 2 }),
    ).rejects.toMatchObject({ code: 11000 });
  });

  test('when the same address registers twice at once, then exactly one account exists (the later sign-up replaces the pending one)', async () => {
    const body = { name: 'Twin', email: 'twin@campus.edu', password: 'long enough' };
    const results = await Promise.all([
      t.http().post('/api/auth/register').send(body),
      t.http().post('/api/auth/register').send(body),
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 201]);
    expect(await t.models.User.countDocuments({ email: 'twin@campus.edu' })).toBe(1);
  });
});
