/**
 * Issue 38, reasons and appeals, through the real routes and database: reports with categories
 * and the queue's filter, removals and suspensions with the reason the member sees, one appeal
 * per decision (from the notification, or from the sign-in page's ticket), and the appeals
 * queue lifting or upholding, the member told and the audit log recording it.
 */
import {
  ACCOUNT_SUSPENDED_MESSAGE,
  ALREADY_APPEALED_MESSAGE,
  APPEAL_TICKET_INVALID,
  type Notification,
  type NotificationOf,
} from '@campus/contracts';
import { mailsTo } from './admin-support';
import { TestClock } from './clock';
import { TEST_PASSWORD, useTestApp } from './test-app';

const t = useTestApp();
let admin: Awaited<ReturnType<typeof t.createMember>>;

beforeAll(async () => {
  admin = await t.createMember({ id: t.config.adminUserId, name: 'Admin' });
});

const as = (auth: string) => ({
  get: (url: string) => t.http().get(url).set('Authorization', auth),
  post: (url: string, body: object = {}) =>
    t.http().post(url).set('Authorization', auth).send(body),
});
const asAdmin = () => as(admin.auth);

async function notificationsOf(auth: string): Promise<Notification[]> {
  return (await as(auth).get('/api/notifications').expect(200)).body as Notification[];
}

async function latestAudit(): Promise<{ action: string; details: Record<string, unknown> }> {
  const res = await asAdmin().get('/api/admin/audit?pageSize=1').expect(200);
  return res.body.items[0];
}

/** Reports `targetId` and removes it from the admin's queue with a reason; answers the case. */
async function reportAndRemove(
  target: { targetType: 'post' | 'comment' | 'user'; targetId: number },
  reason: { category: string; reason?: string },
) {
  const reporter = await t.createMember();
  await as(reporter.auth)
    .post('/api/reports', { ...target, category: 'spam' })
    .expect(201);
  const open = await asAdmin().get('/api/admin/reports?pageSize=100').expect(200);
  const group = open.body.items.find(
    (r: { targetId: number; targetType: string }) =>
      r.targetId === target.targetId && r.targetType === target.targetType,
  );
  return asAdmin()
    .post(`/api/admin/reports/${group.id}/resolve`, { action: 'remove', ...reason })
    .expect(200);
}

async function removalNotice(auth: string): Promise<NotificationOf<'content_removed'>> {
  const notice = (await notificationsOf(auth)).find((n) => n.type === 'content_removed');
  if (notice?.type !== 'content_removed') throw new Error('no content_removed notification');
  return notice;
}

async function pendingAppealOf(memberId: number) {
  const res = await asAdmin().get('/api/admin/appeals?status=pending&pageSize=100').expect(200);
  return res.body.items.find((a: { member: { id: number } | null }) => a.member?.id === memberId);
}

describe('reports with categories', () => {
  test('when members report with a category and optional words, then the queue shows and filters by them', async () => {
    const author = await t.createMember();
    const post = await as(author.auth).post('/api/posts', { content: 'Buy cheap' }).expect(201);
    const [one, two, three] = [
      await t.createMember(),
      await t.createMember(),
      await t.createMember(),
    ];
    const target = { targetType: 'post', targetId: post.body.id };
    await as(one.auth)
      .post('/api/reports', { ...target, category: 'spam' })
      .expect(201);
    await as(two.auth)
      .post('/api/reports', { ...target, category: 'misinformation', reason: '  Not true  ' })
      .expect(201);
    // A client older than categories sends words only: "Something else".
    await as(three.auth)
      .post('/api/reports', { ...target, reason: 'Odd' })
      .expect(201);

    const spam = await asAdmin().get('/api/admin/reports?category=spam&pageSize=100').expect(200);
    const group = spam.body.items.find((r: { targetId: number }) => r.targetId === post.body.id);
    expect(group.categories.sort()).toEqual(['misinformation', 'other', 'spam']);
    expect(
      group.reasons.map((r: { category: string; reason: string | null }) => [r.category, r.reason]),
    ).toEqual([
      ['spam', null],
      ['misinformation', 'Not true'],
      ['other', 'Odd'],
    ]);
    const hate = await asAdmin().get('/api/admin/reports?category=hate&pageSize=100').expect(200);
    expect(hate.body.items.map((r: { targetId: number }) => r.targetId)).not.toContain(
      post.body.id,
    );
    expect(hate.body.total).toBe(hate.body.items.length);
  });

  test('when a case is from before categories, then it reads as "Something else" and the other filter finds it', async () => {
    const author = await t.createMember();
    const post = await as(author.auth).post('/api/posts', { content: 'Old report' }).expect(201);
    const now = new Date();
    // As a version before issue 38 stored them: no categories on the case, none on the report.
    const caseId = await t.context.ids.nextId('report_cases');
    await t.models.ReportCase.collection.insertOne({
      _id: caseId,
      targetType: 'post',
      targetId: post.body.id,
      status: 'open',
      reportCount: 1,
      lastReportedAt: now,
      resolution: null,
      createdAt: now,
    } as never);
    await t.models.Report.collection.insertOne({
      _id: await t.context.ids.nextId('reports'),
      reporterId: admin.id,
      targetType: 'post',
      targetId: post.body.id,
      reason: 'Looks off',
      caseId,
      createdAt: now,
    } as never);
    const other = await asAdmin().get('/api/admin/reports?category=other&pageSize=100').expect(200);
    const legacy = other.body.items.find((r: { id: number }) => r.id === caseId);
    expect(legacy).toMatchObject({
      categories: ['other'],
      reasons: [{ category: 'other', reason: 'Looks off' }],
    });
    const spam = await asAdmin().get('/api/admin/reports?category=spam&pageSize=100').expect(200);
    expect(spam.body.items.map((r: { id: number }) => r.id)).not.toContain(caseId);
  });

  test('when a report has no category and no words, or a wrong category, then 400 and nothing is stored', async () => {
    const author = await t.createMember();
    const member = await t.createMember();
    const post = await as(author.auth).post('/api/posts', { content: 'Fine' }).expect(201);
    const before = await t.models.Report.countDocuments();
    const cases: [object, string][] = [
      [{ targetType: 'post', targetId: post.body.id }, 'Choose what is wrong'],
      [{ targetType: 'post', targetId: post.body.id, reason: '   ' }, 'Choose what is wrong'],
      [
        { targetType: 'post', targetId: post.body.id, category: 'rude' },
        'Category must be one of spam, harassment, hate, violence, sexual, misinformation, impersonation, other',
      ],
      [
        { targetType: 'post', targetId: post.body.id, category: { $ne: null } },
        'Category must be one of spam, harassment, hate, violence, sexual, misinformation, impersonation, other',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await as(member.auth).post('/api/reports', body);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message } });
    }
    const query = await asAdmin().get('/api/admin/reports?category=rude');
    expect(query.status).toBe(400);
    const dismissWithReason = await asAdmin().post('/api/admin/reports/1/resolve', {
      action: 'dismiss',
      category: 'spam',
    });
    expect(dismissWithReason.body).toEqual({ message: 'Only a removal carries a reason' });
    expect(await t.models.Report.countDocuments()).toBe(before);
  });
});

describe('removals: the reason shown, one appeal, lifted or upheld', () => {
  test('when a removed post is appealed and the admin lifts it, then it is back, the member told and the audit log records it', async () => {
    const author = await t.createMember({ name: 'Appealing author' });
    const post = await as(author.auth)
      .post('/api/posts', { content: 'A misunderstood joke' })
      .expect(201);
    const resolved = await reportAndRemove(
      { targetType: 'post', targetId: post.body.id },
      { category: 'harassment', reason: 'Mocks a classmate' },
    );
    expect(resolved.body.resolution).toMatchObject({
      action: 'remove',
      reason: { category: 'harassment', text: 'Mocks a classmate' },
    });
    const notice = await removalNotice(author.auth);
    expect(notice).toMatchObject({
      targetType: 'post',
      content: 'A misunderstood joke',
      reason: { category: 'harassment', text: 'Mocks a classmate' },
      decisionId: expect.any(Number),
      appealed: false,
    });
    await as(author.auth).get(`/api/posts/${post.body.id}`).expect(404);

    // Nobody else may appeal it, and an unknown decision is a 404.
    const other = await t.createMember();
    const foreign = await as(other.auth).post('/api/appeals', {
      decisionId: notice.decisionId,
      text: 'Not mine',
    });
    expect({ status: foreign.status, body: foreign.body }).toEqual({
      status: 404,
      body: { message: 'Decision not found' },
    });
    const unknown = await as(author.auth).post('/api/appeals', {
      decisionId: 999_999,
      text: 'Please',
    });
    expect(unknown.status).toBe(404);

    const appeal = await as(author.auth)
      .post('/api/appeals', {
        decisionId: notice.decisionId,
        text: 'It was a joke between friends.',
      })
      .expect(201);
    expect(appeal.body).toMatchObject({
      decisionId: notice.decisionId,
      status: 'pending',
      decidedAt: null,
    });
    const again = await as(author.auth).post('/api/appeals', {
      decisionId: notice.decisionId,
      text: 'Again',
    });
    expect({ status: again.status, body: again.body }).toEqual({
      status: 409,
      body: { message: ALREADY_APPEALED_MESSAGE },
    });
    // The notice read again (a reload) offers no second appeal.
    expect((await removalNotice(author.auth)).appealed).toBe(true);

    const summary = await asAdmin().get('/api/admin/summary').expect(200);
    expect(summary.body.pendingAppeals).toBeGreaterThanOrEqual(1);
    const queued = await pendingAppealOf(author.id);
    expect(queued).toMatchObject({
      id: appeal.body.id,
      status: 'pending',
      text: 'It was a joke between friends.',
      member: { id: author.id, name: 'Appealing author' },
      decision: {
        id: notice.decisionId,
        kind: 'post_removal',
        reason: { category: 'harassment', text: 'Mocks a classmate' },
        content: 'A misunderstood joke',
        postId: post.body.id,
      },
    });

    const lifted = await asAdmin()
      .post(`/api/admin/appeals/${appeal.body.id}/decide`, {
        outcome: 'lift',
        response: 'Fair enough.',
      })
      .expect(200);
    expect(lifted.body).toMatchObject({ status: 'lifted', response: 'Fair enough.' });
    await as(other.auth).get(`/api/posts/${post.body.id}`).expect(200);
    await t.caughtUp();
    const feed = await as(other.auth).get('/api/posts').expect(200);
    expect(feed.body.map((p: { id: number }) => p.id)).toContain(post.body.id);
    const [told] = await notificationsOf(author.auth);
    expect(told).toEqual({
      id: expect.any(Number),
      type: 'appeal_decided',
      isRead: false,
      createdAt: expect.any(String),
      actor: null,
      outcome: 'lifted',
      decisionKind: 'post_removal',
      content: 'A misunderstood joke',
      response: 'Fair enough.',
    });
    expect(await latestAudit()).toMatchObject({
      action: 'appeal.lift',
      target: { type: 'appeal', id: appeal.body.id },
      details: { decision: notice.decisionId, kind: 'post_removal', restored: true },
    });

    const twice = await asAdmin().post(`/api/admin/appeals/${appeal.body.id}/decide`, {
      outcome: 'uphold',
    });
    expect({ status: twice.status, body: twice.body }).toEqual({
      status: 409,
      body: { message: 'This appeal has already been decided' },
    });
    // A lifted decision cannot be appealed again, and is no longer in the pending queue.
    expect(await pendingAppealOf(author.id)).toBeUndefined();
  });

  test('when a removed comment with a reply is appealed and lifted, then both are back and the count follows', async () => {
    const author = await t.createMember();
    const commenter = await t.createMember();
    const post = await as(author.auth).post('/api/posts', { content: 'Thread' }).expect(201);
    const comment = await as(commenter.auth)
      .post(`/api/posts/${post.body.id}/comments`, { content: 'Sharp words' })
      .expect(201);
    await as(author.auth)
      .post(`/api/posts/${post.body.id}/comments`, { content: 'Reply', parentId: comment.body.id })
      .expect(201);
    await reportAndRemove(
      { targetType: 'comment', targetId: comment.body.id },
      {
        category: 'hate',
      },
    );
    const detail = await as(author.auth).get(`/api/posts/${post.body.id}`).expect(200);
    expect(detail.body.commentsCount).toBe(0);
    const notice = await removalNotice(commenter.auth);
    expect(notice.reason).toEqual({ category: 'hate', text: null });

    const appeal = await as(commenter.auth)
      .post('/api/appeals', { decisionId: notice.decisionId, text: 'It was not hateful.' })
      .expect(201);
    await asAdmin()
      .post(`/api/admin/appeals/${appeal.body.id}/decide`, { outcome: 'lift' })
      .expect(200);
    const back = await as(author.auth).get(`/api/posts/${post.body.id}`).expect(200);
    expect(back.body.commentsCount).toBe(2);
    const comments = back.body.comments as { id: number; replies: { content: string }[] }[];
    const restored = comments.find((c) => c.id === comment.body.id);
    expect(restored?.replies.map((r) => r.content)).toEqual(['Reply']);
  });

  test('when an appeal is upheld, then the post stays removed and the member is told', async () => {
    const author = await t.createMember();
    const post = await as(author.auth).post('/api/posts', { content: 'Really spam' }).expect(201);
    await reportAndRemove({ targetType: 'post', targetId: post.body.id }, { category: 'spam' });
    const notice = await removalNotice(author.auth);
    const appeal = await as(author.auth)
      .post('/api/appeals', { decisionId: notice.decisionId, text: 'Please reconsider.' })
      .expect(201);
    await asAdmin()
      .post(`/api/admin/appeals/${appeal.body.id}/decide`, { outcome: 'uphold' })
      .expect(200);
    await as(author.auth).get(`/api/posts/${post.body.id}`).expect(404);
    const [told] = await notificationsOf(author.auth);
    expect(told).toMatchObject({ type: 'appeal_decided', outcome: 'upheld', response: null });
    expect((await latestAudit()).action).toBe('appeal.uphold');
    const upheld = await asAdmin().get('/api/admin/appeals?status=upheld&pageSize=100');
    expect(upheld.body.items.map((a: { id: number }) => a.id)).toContain(appeal.body.id);
  });

  test('when an appeal or an outcome is malformed, then 400 with what is wrong, and only the admin decides', async () => {
    const member = await t.createMember();
    const cases: [object, string][] = [
      [{ decisionId: 1, text: '   ' }, 'Appeal is required'],
      [{ decisionId: 1, text: 'x'.repeat(1001) }, 'Appeal must be at most 1000 characters'],
      [{ decisionId: 'one', text: 'Please' }, 'Decision id must be a number'],
      [{ decisionId: 1, text: { $gt: '' } }, 'Appeal is required'],
      [{ decisionId: 1, text: 'Please', memberId: 2 }, 'Unrecognized key: "memberId"'],
    ];
    for (const [body, message] of cases) {
      const res = await as(member.auth).post('/api/appeals', body);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message } });
    }
    const outcome = await asAdmin().post('/api/admin/appeals/1/decide', { outcome: 'pardon' });
    expect(outcome.body).toEqual({ message: 'Outcome must be one of lift, uphold' });
    const missing = await asAdmin().post('/api/admin/appeals/999999/decide', { outcome: 'lift' });
    expect({ status: missing.status, body: missing.body }).toEqual({
      status: 404,
      body: { message: 'Appeal not found' },
    });
    await as(member.auth).get('/api/admin/appeals').expect(403);
    await as(member.auth).post('/api/admin/appeals/1/decide', { outcome: 'lift' }).expect(403);
    await t.http().post('/api/appeals').send({ decisionId: 1, text: 'x' }).expect(401);
  });
});

describe('suspensions: the reason at sign-in and an appeal from there', () => {
  const signIn = (email: string) =>
    t.http().post('/api/auth/login').send({ email, password: TEST_PASSWORD });

  test('when a suspended member signs in, then the spec message comes with the reason and a ticket; the appeal is once, and lifting lets them in', async () => {
    const member = await t.createMember({ name: 'Suspended Sam' });
    await asAdmin()
      .post(`/api/admin/users/${member.id}/suspend`, {
        category: 'impersonation',
        reason: 'Pretends to be the dean',
      })
      .expect(200);
    const refused = await signIn(member.email).expect(403);
    expect(refused.body).toEqual({
      message: ACCOUNT_SUSPENDED_MESSAGE,
      suspension: {
        decisionId: expect.any(Number),
        suspendedAt: expect.any(String),
        reason: { category: 'impersonation', text: 'Pretends to be the dean' },
        appeal: null,
        ticket: expect.stringMatching(/^[\w-]{43}$/),
      },
    });
    // The wrong password learns nothing of it.
    const wrong = await t
      .http()
      .post('/api/auth/login')
      .send({ email: member.email, password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.suspension).toBeUndefined();

    const { ticket } = refused.body.suspension;
    const appeal = await t
      .http()
      .post('/api/appeals/suspension')
      .send({ ticket, text: 'I am the dean’s assistant, posting for her.' })
      .expect(201);
    expect(appeal.body).toMatchObject({ status: 'pending' });
    // The ticket is spent, and a new sign-in shows the appeal instead of a ticket.
    const again = await t.http().post('/api/appeals/suspension').send({ ticket, text: 'Again' });
    expect({ status: again.status, body: again.body }).toEqual({
      status: 400,
      body: { message: APPEAL_TICKET_INVALID },
    });
    const later = await signIn(member.email).expect(403);
    expect(later.body.suspension).toMatchObject({
      appeal: { id: appeal.body.id, status: 'pending' },
      ticket: null,
    });

    const queued = await pendingAppealOf(member.id);
    expect(queued.decision).toMatchObject({
      kind: 'suspension',
      reason: { category: 'impersonation', text: 'Pretends to be the dean' },
      content: null,
      postId: null,
    });
    await asAdmin()
      .post(`/api/admin/appeals/${appeal.body.id}/decide`, {
        outcome: 'lift',
        response: 'Thanks for explaining.',
      })
      .expect(200);
    const back = await signIn(member.email).expect(200);
    // The first sign-in that got in: the refused ones while suspended recorded nothing.
    expect(back.body).toEqual({
      user: expect.objectContaining({ id: member.id }),
      token: expect.any(String),
      firstSignIn: true,
    });
    const [told] = await notificationsOf(`Bearer ${back.body.token}`);
    expect(told).toMatchObject({
      type: 'appeal_decided',
      outcome: 'lifted',
      decisionKind: 'suspension',
    });
    const [mail] = await mailsTo(t, member.email);
    expect(mail?.subject).toBe('Your Campus account is active again');
    expect(mail?.text).toContain('Thanks for explaining.');
    expect(await latestAudit()).toMatchObject({
      action: 'appeal.lift',
      details: { kind: 'suspension', member: member.id, restored: true },
    });
  });

  test('when a suspension appeal is upheld, then sign-in stays refused and shows it, and the member is e-mailed', async () => {
    const member = await t.createMember();
    await asAdmin().post(`/api/admin/users/${member.id}/suspend`, { reason: 'Spam' }).expect(200);
    const refused = await signIn(member.email).expect(403);
    // No category given: "Something else".
    expect(refused.body.suspension.reason).toEqual({ category: 'other', text: 'Spam' });
    const appeal = await t
      .http()
      .post('/api/appeals/suspension')
      .send({ ticket: refused.body.suspension.ticket, text: 'I will stop.' })
      .expect(201);
    await asAdmin()
      .post(`/api/admin/appeals/${appeal.body.id}/decide`, { outcome: 'uphold' })
      .expect(200);
    const still = await signIn(member.email).expect(403);
    expect(still.body.suspension.appeal).toMatchObject({ status: 'upheld' });
    const [mail] = await mailsTo(t, member.email);
    expect(mail?.subject).toBe('Your Campus appeal');
  });

  test('when the ticket is older than an hour, then the appeal is refused (fake clock)', async () => {
    const clock = new TestClock();
    const clocked = t.withConfig({}, clock);
    const member = await t.createMember();
    await asAdmin()
      .post(`/api/admin/users/${member.id}/suspend`, { category: 'spam', reason: 'Ads' })
      .expect(200);
    const refused = await clocked
      .post('/api/auth/login')
      .send({ email: member.email, password: TEST_PASSWORD })
      .expect(403);
    clock.advance(60 * 60 * 1000 + 1);
    const late = await clocked
      .post('/api/appeals/suspension')
      .send({ ticket: refused.body.suspension.ticket, text: 'Sorry' });
    expect({ status: late.status, body: late.body }).toEqual({
      status: 400,
      body: { message: APPEAL_TICKET_INVALID },
    });
    const malformed = await clocked
      .post('/api/appeals/suspension')
      .send({ ticket: 'short', text: 'Sorry' });
    expect(malformed.body).toEqual({ message: APPEAL_TICKET_INVALID });
  });

  test('when the admin reactivates a member from the members page, then their suspension can no longer be appealed', async () => {
    const member = await t.createMember();
    await asAdmin()
      .post(`/api/admin/users/${member.id}/suspend`, { category: 'spam', reason: 'Ads' })
      .expect(200);
    const refused = await signIn(member.email).expect(403);
    await asAdmin().post(`/api/admin/users/${member.id}/reactivate`).expect(200);
    const late = await t
      .http()
      .post('/api/appeals/suspension')
      .send({ ticket: refused.body.suspension.ticket, text: 'Sorry' });
    expect(late.status).toBe(400);
  });
});
