import { useTestApp } from '../../../test/test-app';

const t = useTestApp({ adminUserId: 107 });

const valid = {
  name: ' Alum Person ',
  contactInfo: ' +1 555 0100 ',
  message: ' Class of 2015, physics ',
};

describe('POST /api/account-application', () => {
  test('when a visitor applies, then the application is stored trimmed and the admin gets an actor-less notification', async () => {
    const res = await t.http().post('/api/account-application').send(valid);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      status: 'pending',
      createdAt: expect.any(String),
    });
    expect(await t.models.AccountApplication.findById(res.body.id).lean()).toMatchObject({
      name: 'Alum Person',
      contactInfo: '+1 555 0100',
      message: 'Class of 2015, physics',
      status: 'pending',
    });
    expect(
      await t.models.Notification.findOne({ applicationId: res.body.id }).lean(),
    ).toMatchObject({
      userId: 107,
      type: 'account_application',
      actorId: null,
      isRead: false,
    });
  });

  test.each([
    ['the name is blank', { name: '  ' }, 'Full name is required'],
    ['the contact is missing', { contactInfo: undefined }, 'Contact information is required'],
    ['the message is blank', { message: '\t' }, 'Additional information is required'],
    [
      'the name is over 100 characters',
      { name: 'n'.repeat(101) },
      'Full name must be at most 100 characters',
    ],
    [
      'the contact is over 200 characters',
      { contactInfo: 'c'.repeat(201) },
      'Contact information must be at most 200 characters',
    ],
    [
      'the message is over 2000 characters',
      { message: 'm'.repeat(2001) },
      'Additional information must be at most 2000 characters',
    ],
  ])('when %s, then 400 and nothing is stored', async (_case, change, message) => {
    const before = await t.models.AccountApplication.countDocuments();
    const res = await t
      .http()
      .post('/api/account-application')
      .send({ ...valid, ...change });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
    expect(await t.models.AccountApplication.countDocuments()).toBe(before);
  });
});
