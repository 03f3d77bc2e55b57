import { useTestApp } from '../../../test/test-app';
import { clearOfWindowEnd } from '../../../test/rate-windows';

const t = useTestApp({ adminUserId: 107 });

describe('POST /api/feedback', () => {
  test('when a member sends feedback, then it is stored trimmed as pending and the admin is notified with its id', async () => {
    const member = await t.createMember();
    const res = await t
      .http()
      .post('/api/feedback')
      .set('Authorization', member.auth)
      .send({ feedback: '  The feed is great  ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      message: 'The feed is great',
      status: 'pending',
      createdAt: expect.any(String),
    });

    const stored = await t.models.Feedback.findById(res.body.id).lean();
    expect(stored).toMatchObject({
      userId: member.id,
      message: 'The feed is great',
      status: 'pending',
    });
    expect(stored?.updatedAt).toBeInstanceOf(Date);
    const notification = await t.models.Notification.findOne({ feedbackId: res.body.id }).lean();
    expect(notification).toMatchObject({
      userId: 107,
      type: 'feedback',
      actorId: member.id,
      isRead: false,
    });
  });

  test.each([
    ['empty', { feedback: '' }, 'Feedback is required'],
    ['only spaces', { feedback: '   \n ' }, 'Feedback is required'],
    ['missing', {}, 'Feedback is required'],
    [
      'over 2000 characters',
      { feedback: 'f'.repeat(2001) },
      'Feedback must be at most 2000 characters',
    ],
  ])('when the feedback is %s, then 400 and nothing is stored', async (_case, body, message) => {
    const member = await t.createMember();
    const res = await t.http().post('/api/feedback').set('Authorization', member.auth).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
    expect(await t.models.Feedback.countDocuments({ userId: member.id })).toBe(0);
  });

  test('when nobody is signed in, then 401 and nothing is stored', async () => {
    const before = await t.models.Feedback.countDocuments();
    await t.http().post('/api/feedback').send({ feedback: 'anonymous' }).expect(401);
    expect(await t.models.Feedback.countDocuments()).toBe(before);
  });

  test('when feedback is sent more often than allowed, then 429 with Retry-After', async () => {
    const member = await t.createMember();
    await clearOfWindowEnd(3_600_000);
    const client = t.withConfig({ rateLimits: { feedback: { max: 1, windowMs: 3_600_000 } } });
    await client
      .post('/api/feedback')
      .set('Authorization', member.auth)
      .send({ feedback: 'one' })
      .expect(201);
    const res = await client
      .post('/api/feedback')
      .set('Authorization', member.auth)
      .send({ feedback: 'two' });
    expect(res.status).toBe(429);
    // Windows are aligned to the clock (every process counts into the same one): at most an hour.
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(await t.models.Feedback.countDocuments({ userId: member.id })).toBe(1);
  });
});
