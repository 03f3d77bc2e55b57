/**
 * Issue 18, the API: applications and invitations, feedback replies, members and suspension,
 * reports, the audit log and the summary counts, through the real routes and database.
 */
import {
  ACCOUNT_SUSPENDED_MESSAGE,
  ALREADY_REPORTED_MESSAGE,
  SESSION_REVOKED_MESSAGE,
  type Notification,
} from '@campus/contracts';
import { trusted } from 'mongoose';
import { apply, mailsTo } from './admin-support';
import { TEST_PASSWORD, uniqueEmail, useTestApp } from './test-app';

const t = useTestApp();
let admin: Awaited<ReturnType<typeof t.createMember>>;

beforeAll(async () => {
  admin = await t.createMember({ id: t.config.adminUserId, name: 'Admin' });
});

const as = (auth: string) => ({
  get: (url: string) => t.http().get(url).set('Authorization', auth),
  post: (url: string, body: object = {}) =>
    t.http().post(url).set('Authorization', auth).send(body),
  put: (url: string, body: object) => t.http().put(url).set('Authorization', auth).send(body),
});
const asAdmin = () => as(admin.auth);

async function notificationsOf(auth: string): Promise<Notification[]> {
  return (await as(auth).get('/api/notifications').expect(200)).body as Notification[];
}

async function auditActions(): Promise<string[]> {
  const res = await asAdmin().get('/api/admin/audit?pageSize=100').expect(200);
  return res.body.items.map((e: { action: string }) => e.action);
}

describe('account applications and invitations', () => {
  test('when applications are listed, then one status, newest first, paged with the total', async () => {
    const older = await apply(t, { name: 'Older', contactInfo: 'older@example.org' });
    const newer = await apply(t, { name: 'Newer', contactInfo: 'Phone +44 20 0000' });
    const first = await asAdmin().get('/api/admin/applications?pageSize=1').expect(200);
    expect(first.body).toMatchObject({ page: 1, pageSize: 1 });
    expect(first.body.total).toBeGreaterThanOrEqual(2);
    expect(first.body.items.map((a: { id: number }) => a.id)).toEqual([newer]);
    const second = await asAdmin().get('/api/admin/applications?pageSize=1&page=2').expect(200);
    expect(second.body.items.map((a: { id: number }) => a.id)).toEqual([older]);
    expect(first.body.items[0]).toMatchObject({ status: 'pending', email: null });
  });

  test('when the query is malformed, then 400 with what is wrong', async () => {
    const bad = await asAdmin().get('/api/admin/applications?status=maybe');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: 'Status must be one of pending, approved, rejected' });
    const page = await asAdmin().get('/api/admin/applications?page=0');
    expect(page.body).toEqual({ message: 'Page must be at least 1' });
  });

  test('when an application is approved, then an invitation link is answered and mailed, once', async () => {
    const email = uniqueEmail('grace', 'example.org');
    const id = await apply(t, { name: 'Grace Hopper', contactInfo: `Mail me: ${email}` });
    const res = await asAdmin().post(`/api/admin/applications/${id}/approve`).expect(200);
    expect(res.body.invitationUrl).toMatch(/^http:\/\/web\.test\/register\?invitation=[\w-]{43}$/);
    expect(res.body).toMatchObject({
      emailed: true,
      application: { id, status: 'approved', email },
    });
    const days = (Date.parse(res.body.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);
    // The mail carries its own link of the invitation; the answer's is for hand delivery.
    const [mail] = await mailsTo(t, email);
    expect(mail?.links.invitation).toMatch(/^http:\/\/web\.test\/register\?invitation=[\w-]{43}$/);
    expect(mail?.links.invitation).not.toBe(res.body.invitationUrl);

    const again = await asAdmin().post(`/api/admin/applications/${id}/approve`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'This application has already been decided' });
    const reject = await asAdmin().post(`/api/admin/applications/${id}/reject`, {});
    expect(reject.status).toBe(409);
    expect(await t.models.Invitation.countDocuments({ applicationId: id })).toBe(1);
    expect((await auditActions())[0]).toBe('application.approve');
  });

  test("when the admin's link is looked up, then it names the applicant but not the address found in the contact text", async () => {
    const email = uniqueEmail('shown', 'example.org');
    const token = await invitationFor('Shown Alum', email);
    const invitation = await t.http().get(`/api/invitations/${token}`).expect(200);
    expect(invitation.body).toEqual({ name: 'Shown Alum' });
  });

  test('when the contact information has no address, then the link is answered but not mailed', async () => {
    const id = await apply(t, { name: 'No Mail', contactInfo: 'Call +1 555 0100' });
    const res = await asAdmin().post(`/api/admin/applications/${id}/approve`).expect(200);
    expect(res.body.emailed).toBe(false);
    const token = new URL(res.body.invitationUrl).searchParams.get('invitation');
    const invitation = await t.http().get(`/api/invitations/${token}`).expect(200);
    expect(invitation.body).toEqual({ name: 'No Mail' });
  });

  test('when an application is rejected with a reason, then it is e-mailed; unknown ids 404', async () => {
    const email = uniqueEmail('rejected', 'example.org');
    const id = await apply(t, { name: 'Rejected', contactInfo: email });
    const res = await asAdmin()
      .post(`/api/admin/applications/${id}/reject`, { reason: '  Not an alum  ' })
      .expect(200);
    expect(res.body).toMatchObject({
      emailed: true,
      application: { status: 'rejected', rejectionReason: 'Not an alum' },
    });
    const [mail] = await mailsTo(t, email);
    expect(mail?.text).toContain('Reason: Not an alum');
    expect(await t.models.Invitation.countDocuments({ applicationId: id })).toBe(0);
    const missing = await asAdmin().post('/api/admin/applications/999999/approve');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Application not found' });
    const long = await asAdmin().post(`/api/admin/applications/${id}/reject`, {
      reason: 'x'.repeat(1001),
    });
    expect(long.body).toEqual({ message: 'Reason must be at most 1000 characters' });
  });

  /** The token of the link the admin's answer carries (for hand delivery). */
  async function invitationFor(name: string, email: string | null): Promise<string> {
    const id = await apply(t, { name, contactInfo: email ?? 'by phone' });
    const res = await asAdmin().post(`/api/admin/applications/${id}/approve`).expect(200);
    return new URL(res.body.invitationUrl).searchParams.get('invitation')!;
  }

  /** The token of the link mailed to `email` (the invitee's mailbox). */
  async function mailedInvitationFor(name: string, email: string): Promise<string> {
    await invitationFor(name, email);
    const link = (await mailsTo(t, email)).at(-1)?.links.invitation;
    return new URL(link!).searchParams.get('invitation')!;
  }

  test('when an alum registers with the address invited through the mailed link, then any domain works, verified and alumni, once', async () => {
    const email = uniqueEmail('alum', 'gmail.com');
    const token = await mailedInvitationFor('Ada Alum', email);
    expect((await t.http().get(`/api/invitations/${token}`).expect(200)).body).toEqual({
      name: 'Ada Alum',
      email,
    });
    const res = await t
      .http()
      .post('/api/auth/register')
      .send({ name: 'Ada Alum', email, password: TEST_PASSWORD, invitationToken: token });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Account created successfully! You can now sign in.');
    expect(res.body.user).toMatchObject({ email, affiliation: 'alumni' });
    const login = await t
      .http()
      .post('/api/auth/login')
      .send({ email, password: TEST_PASSWORD })
      .expect(200);
    expect(login.body.user.affiliation).toBe('alumni');
    const me = await as(`Bearer ${login.body.token}`).get('/api/auth/me').expect(200);
    expect(me.body.user.affiliation).toBe('alumni');
    expect(await mailsTo(t, email)).toHaveLength(1); // the invitation, no verification link

    const used = await t.http().get(`/api/invitations/${token}`);
    expect(used.status).toBe(410);
    expect(used.body).toEqual({ message: 'This invitation link has already been used.' });
    const twice = await t
      .http()
      .post('/api/auth/register')
      .send({
        name: 'Someone',
        email: uniqueEmail('other', 'gmail.com'),
        password: TEST_PASSWORD,
        invitationToken: token,
      });
    expect(twice.status).toBe(410);
  });

  test('when an alum registers another address, then it needs the verification link', async () => {
    const token = await mailedInvitationFor('Bo Alum', uniqueEmail('bo', 'example.org'));
    const personal = uniqueEmail('bo.personal', 'yahoo.com');
    const browser = t.browser(); // the registering browser: its link verifies in one click
    const res = await browser.post('/api/auth/register').send({
      name: 'Bo Alum',
      email: personal,
      password: TEST_PASSWORD,
      invitationToken: token,
    });
    expect(res.status).toBe(201);
    expect(res.body.user.affiliation).toBe('alumni');
    const [verification] = await mailsTo(t, personal);
    expect(verification?.links.verification).toMatch(/^http:\/\/web\.test\/verify\//);
    const login = await t
      .http()
      .post('/api/auth/login')
      .send({ email: personal, password: TEST_PASSWORD });
    expect(login.status).toBe(403);
    await browser
      .get(`/api/auth/verify/${verification!.links.verification!.split('/').at(-1)}`)
      .expect(200);
    await t
      .http()
      .post('/api/auth/login')
      .send({ email: personal, password: TEST_PASSWORD })
      .expect(200);
  });

  test('when the same invitation is used by concurrent registrations, then exactly one account is made', async () => {
    const token = await invitationFor('Race Alum', null);
    const emails = Array.from({ length: 6 }, () => uniqueEmail('race', 'gmail.com'));
    const results = await Promise.all(
      emails.map((email) =>
        t.http().post('/api/auth/register').send({
          name: 'Race Alum',
          email,
          password: TEST_PASSWORD,
          invitationToken: token,
        }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 410, 410, 410, 410, 410]);
    expect(
      await t.models.User.countDocuments({
        email: trusted({ $in: emails }),
        affiliation: 'alumni',
      }),
    ).toBe(1);
  });

  test('when an invitation is unknown, malformed or expired, then 404 or 410; without one the domain rule holds', async () => {
    const unknown = await t.http().get(`/api/invitations/${'a'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'This invitation link is invalid.' });
    expect((await t.http().get('/api/invitations/short')).status).toBe(404);
    const token = await invitationFor('Late Alum', null);
    await t.models.Invitation.updateOne(
      { name: 'Late Alum' },
      { $set: { expiresAt: new Date(Date.now() - 1000) } },
    );
    const expired = await t.http().get(`/api/invitations/${token}`);
    expect(expired.status).toBe(410);
    expect(expired.body).toEqual({ message: 'This invitation link has expired.' });
    const register = await t
      .http()
      .post('/api/auth/register')
      .send({
        name: 'Late Alum',
        email: uniqueEmail('late', 'gmail.com'),
        password: TEST_PASSWORD,
        invitationToken: token,
      });
    expect(register.status).toBe(410);
    const plain = await t
      .http()
      .post('/api/auth/register')
      .send({
        name: 'Not invited',
        email: uniqueEmail('plain', 'gmail.com'),
        password: TEST_PASSWORD,
      });
    expect(plain.status).toBe(400);
  });
});

describe('feedback', () => {
  test('when the admin replies, then the status changes and the member is notified with the text', async () => {
    const member = await t.createMember({ name: 'Feedback giver' });
    const sent = await as(member.auth)
      .post('/api/feedback', { feedback: 'Please add dark mode' })
      .expect(201);
    const pending = await asAdmin().get('/api/admin/feedback?status=pending').expect(200);
    expect(pending.body.items[0]).toMatchObject({
      id: sent.body.id,
      status: 'pending',
      author: { id: member.id, name: 'Feedback giver' },
      reply: null,
    });
    const res = await asAdmin()
      .put(`/api/admin/feedback/${sent.body.id}`, {
        status: 'in_progress',
        reply: 'We are on it',
      })
      .expect(200);
    expect(res.body).toMatchObject({ status: 'in_progress', reply: 'We are on it' });
    const inProgress = await asAdmin().get('/api/admin/feedback?status=in_progress').expect(200);
    expect(inProgress.body.items.map((f: { id: number }) => f.id)).toContain(sent.body.id);
    const [notification] = await notificationsOf(member.auth);
    expect(notification).toMatchObject({
      type: 'feedback_reply',
      reply: 'We are on it',
      feedback: { message: 'Please add dark mode' },
      actor: { id: admin.id },
    });
    // A status change alone notifies nobody.
    await asAdmin().put(`/api/admin/feedback/${sent.body.id}`, { status: 'resolved' }).expect(200);
    expect(await notificationsOf(member.auth)).toHaveLength(1);
    expect((await auditActions()).slice(0, 2)).toEqual(['feedback.update', 'feedback.update']);
  });

  test('when the update is wrong, then 400 or 404 with the reason', async () => {
    const bad = await asAdmin().put('/api/admin/feedback/1', { status: 'reviewed' });
    expect(bad.body).toEqual({ message: 'Status must be one of pending, in_progress, resolved' });
    const empty = await asAdmin().put('/api/admin/feedback/1', { status: 'resolved', reply: ' ' });
    expect(empty.body).toEqual({ message: 'Reply is required' });
    const missing = await asAdmin().put('/api/admin/feedback/999999', { status: 'resolved' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Feedback not found' });
  });
});

describe('members and suspension', () => {
  test('when members are searched, then q finds a part of the name or e-mail and status filters', async () => {
    const zed = await t.createMember({ name: 'Zedekiah Quux', email: uniqueEmail('zq') });
    const byName = await asAdmin().get('/api/admin/users?q=ekiah%20qu').expect(200);
    expect(byName.body.items.map((u: { id: number }) => u.id)).toEqual([zed.id]);
    expect(byName.body.items[0]).toMatchObject({ status: 'active', isAdmin: false });
    const byEmail = await asAdmin()
      .get(`/api/admin/users?q=${encodeURIComponent(zed.email.toUpperCase())}`)
      .expect(200);
    expect(byEmail.body.total).toBe(1);
    const regexChars = await asAdmin().get('/api/admin/users?q=.*').expect(200);
    expect(regexChars.body.total).toBe(0);
    const unverified = await t.createMember({ name: 'Unverified Zed', isVerified: false });
    const list = await asAdmin().get('/api/admin/users?q=zed&status=unverified').expect(200);
    expect(list.body.items.map((u: { id: number }) => u.id)).toEqual([unverified.id]);
    const twice = await asAdmin().get('/api/admin/users?q=a&q=b');
    expect(twice.body).toEqual({ message: 'Search must be text' });
    const bad = await asAdmin().get('/api/admin/users?status=banned');
    expect(bad.body).toEqual({ message: 'Status must be one of active, suspended, unverified' });
  });

  test('when a member is suspended, then sign-in, tokens and their content are refused until reactivation', async () => {
    const spammer = await t.createMember({ name: 'Spammer' });
    const reader = await t.createMember({ name: 'Reader' });
    const post = await as(spammer.auth).post('/api/posts', { content: 'Buy now' }).expect(201);
    const other = await as(reader.auth).post('/api/posts', { content: 'Hello' }).expect(201);
    await as(spammer.auth)
      .post(`/api/posts/${other.body.id}/comments`, { content: 'Buy my stuff' })
      .expect(201);
    // Read first, so the feed cache holds a page with the post.
    const before = await as(reader.auth).get('/api/posts').expect(200);
    expect(before.body.map((p: { id: number }) => p.id)).toContain(post.body.id);

    const res = await asAdmin()
      .post(`/api/admin/users/${spammer.id}/suspend`, { reason: 'Spam' })
      .expect(200);
    expect(res.body).toMatchObject({
      id: spammer.id,
      status: 'suspended',
      suspensionReason: 'Spam',
    });

    const session = await as(spammer.auth).get('/api/auth/me');
    expect(session.status).toBe(401);
    expect(session.body).toEqual({ message: ACCOUNT_SUSPENDED_MESSAGE });
    const login = await t
      .http()
      .post('/api/auth/login')
      .send({ email: spammer.email, password: TEST_PASSWORD });
    expect(login.status).toBe(403);
    // With the reason and how to appeal (issue 38; api/test/appeals.test.ts).
    expect(login.body).toEqual({
      message: ACCOUNT_SUSPENDED_MESSAGE,
      suspension: expect.objectContaining({ reason: { category: 'other', text: 'Spam' } }),
    });

    const feed = await as(reader.auth).get('/api/posts').expect(200);
    expect(feed.body.map((p: { id: number }) => p.id)).not.toContain(post.body.id);
    await as(reader.auth).get(`/api/posts/${post.body.id}`).expect(404);
    const detail = await as(reader.auth).get(`/api/posts/${other.body.id}`).expect(200);
    expect(detail.body.comments).toEqual([]);
    const profile = await as(reader.auth).get(`/api/users/${spammer.id}`).expect(200);
    expect(profile.body.posts).toEqual([]);

    await asAdmin().post(`/api/admin/users/${spammer.id}/reactivate`).expect(200);
    const back = await as(reader.auth).get('/api/posts').expect(200);
    expect(back.body.map((p: { id: number }) => p.id)).toContain(post.body.id);
    const comments = await as(reader.auth).get(`/api/posts/${other.body.id}`).expect(200);
    expect(comments.body.comments).toHaveLength(1);
    // The session that ended stays ended; signing in again works.
    const old = await as(spammer.auth).get('/api/auth/me');
    expect(old.body).toEqual({ message: SESSION_REVOKED_MESSAGE });
    await t
      .http()
      .post('/api/auth/login')
      .send({ email: spammer.email, password: TEST_PASSWORD })
      .expect(200);
    expect((await auditActions()).slice(0, 2)).toEqual(['user.reactivate', 'user.suspend']);
  });

  test('when a suspension is not possible, then 400, 404 or 409 with the reason', async () => {
    const self = await asAdmin().post(`/api/admin/users/${admin.id}/suspend`, { reason: 'x' });
    expect(self.status).toBe(400);
    expect(self.body).toEqual({ message: 'You cannot suspend your own account' });
    const member = await t.createMember();
    const noReason = await asAdmin().post(`/api/admin/users/${member.id}/suspend`, {});
    expect(noReason.body).toEqual({ message: 'Reason is required' });
    await asAdmin().post(`/api/admin/users/${member.id}/suspend`, { reason: 'x' }).expect(200);
    const twice = await asAdmin().post(`/api/admin/users/${member.id}/suspend`, { reason: 'x' });
    expect(twice.status).toBe(409);
    await asAdmin().post(`/api/admin/users/${member.id}/reactivate`).expect(200);
    const notSuspended = await asAdmin().post(`/api/admin/users/${member.id}/reactivate`);
    expect(notSuspended.status).toBe(409);
    expect(notSuspended.body).toEqual({ message: 'This member is not suspended' });
    const missing = await asAdmin().post('/api/admin/users/999999/suspend', { reason: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'User not found' });
  });
});

describe('reports', () => {
  test('when members report a post, then once each, grouped by target, and remove deletes it and tells the author', async () => {
    const author = await t.createMember({ name: 'Troll' });
    const [one, two] = [await t.createMember(), await t.createMember()];
    const post = await as(author.auth).post('/api/posts', { content: 'Nasty words' }).expect(201);
    const body = { targetType: 'post', targetId: post.body.id, reason: 'Harassment' };
    const first = await as(one.auth).post('/api/reports', body).expect(201);
    expect(first.body).toMatchObject({ targetType: 'post', targetId: post.body.id });
    const again = await as(one.auth).post('/api/reports', body);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: ALREADY_REPORTED_MESSAGE });
    await as(two.auth)
      .post('/api/reports', { ...body, reason: 'Insults' })
      .expect(201);

    const open = await asAdmin().get('/api/admin/reports?status=open').expect(200);
    const group = open.body.items.find((r: { targetId: number }) => r.targetId === post.body.id);
    expect(group).toMatchObject({
      targetType: 'post',
      reportCount: 2,
      target: {
        content: 'Nasty words',
        postId: post.body.id,
        author: { id: author.id },
        removed: false,
      },
    });
    expect(group.reasons.map((r: { reason: string }) => r.reason)).toEqual([
      'Harassment',
      'Insults',
    ]);
    expect(JSON.stringify(group)).not.toContain(`"id":${one.id},`);
    const summary = await asAdmin().get('/api/admin/summary').expect(200);
    expect(summary.body.openReports).toBeGreaterThanOrEqual(1);

    const resolved = await asAdmin()
      .post(`/api/admin/reports/${group.id}/resolve`, { action: 'remove' })
      .expect(200);
    expect(resolved.body).toMatchObject({
      status: 'resolved',
      resolution: { action: 'remove' },
      target: { removed: true },
    });
    await as(one.auth).get(`/api/posts/${post.body.id}`).expect(404);
    const feed = await as(one.auth).get('/api/posts').expect(200);
    expect(feed.body.map((p: { id: number }) => p.id)).not.toContain(post.body.id);
    const [notice] = await notificationsOf(author.auth);
    expect(notice).toEqual({
      id: expect.any(Number),
      type: 'content_removed',
      isRead: false,
      createdAt: expect.any(String),
      actor: null,
      targetType: 'post',
      content: 'Nasty words',
      // No reason given: "Something else" (issue 38).
      decisionId: expect.any(Number),
      reason: { category: 'other', text: null },
      appealed: false,
    });
    const twice = await asAdmin().post(`/api/admin/reports/${group.id}/resolve`, {
      action: 'dismiss',
    });
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ message: 'This report has already been resolved' });
    expect((await auditActions())[0]).toBe('report.remove');
  });

  test('when a reported comment is removed, then it and its replies vanish and the count follows', async () => {
    const author = await t.createMember({ name: 'Commenter' });
    const owner = await t.createMember({ name: 'Owner' });
    const post = await as(owner.auth).post('/api/posts', { content: 'Topic' }).expect(201);
    const comment = await as(author.auth)
      .post(`/api/posts/${post.body.id}/comments`, { content: 'Rude', syncToTimeline: true })
      .expect(201);
    await as(owner.auth)
      .post(`/api/posts/${post.body.id}/comments`, { content: 'Hey', parentId: comment.body.id })
      .expect(201);
    await as(owner.auth)
      .post(`/api/posts/${post.body.id}/comments`, { content: 'Fine comment' })
      .expect(201);
    await as(owner.auth)
      .post('/api/reports', { targetType: 'comment', targetId: comment.body.id, reason: 'Rude' })
      .expect(201);
    const open = await asAdmin().get('/api/admin/reports').expect(200);
    const group = open.body.items.find(
      (r: { targetId: number; targetType: string }) =>
        r.targetType === 'comment' && r.targetId === comment.body.id,
    );
    expect(group.target).toMatchObject({ content: 'Rude', postId: post.body.id });
    await asAdmin()
      .post(`/api/admin/reports/${group.id}/resolve`, { action: 'remove' })
      .expect(200);

    const detail = await as(owner.auth).get(`/api/posts/${post.body.id}`).expect(200);
    expect(detail.body.comments.map((c: { content: string }) => c.content)).toEqual([
      'Fine comment',
    ]);
    expect(detail.body.commentsCount).toBe(1);
    const timeline = await as(owner.auth).get(`/api/users/${author.id}`).expect(200);
    expect(timeline.body.posts).toEqual([]); // the copy shared to the timeline went too
    const [notice] = await notificationsOf(author.auth);
    expect(notice).toMatchObject({
      type: 'content_removed',
      targetType: 'comment',
      content: 'Rude',
    });
  });

  test('when a reported member is removed, then they are suspended; a dismissal keeps the target', async () => {
    const troll = await t.createMember({ name: 'Reported member' });
    const reporter = await t.createMember();
    await as(reporter.auth)
      .post('/api/reports', { targetType: 'user', targetId: troll.id, reason: 'Impersonation' })
      .expect(201);
    const post = await as(troll.auth).post('/api/posts', { content: 'Fine post' }).expect(201);
    await as(reporter.auth)
      .post('/api/reports', { targetType: 'post', targetId: post.body.id, reason: 'Meh' })
      .expect(201);
    const open = (await asAdmin().get('/api/admin/reports?pageSize=100').expect(200)).body.items;
    const userCase = open.find(
      (r: { targetType: string; targetId: number }) =>
        r.targetType === 'user' && r.targetId === troll.id,
    );
    const postCase = open.find(
      (r: { targetType: string; targetId: number }) =>
        r.targetType === 'post' && r.targetId === post.body.id,
    );
    await asAdmin()
      .post(`/api/admin/reports/${postCase.id}/resolve`, { action: 'dismiss' })
      .expect(200);
    await as(reporter.auth).get(`/api/posts/${post.body.id}`).expect(200);
    await asAdmin()
      .post(`/api/admin/reports/${userCase.id}/resolve`, { action: 'remove' })
      .expect(200);
    expect((await as(troll.auth).get('/api/auth/me')).body).toEqual({
      message: ACCOUNT_SUSPENDED_MESSAGE,
    });
    expect((await auditActions()).slice(0, 3)).toEqual([
      'report.remove',
      'user.suspend',
      'report.dismiss',
    ]);
    const resolved = await asAdmin()
      .get('/api/admin/reports?status=resolved&pageSize=100')
      .expect(200);
    expect(resolved.body.items.map((r: { id: number }) => r.id)).toEqual(
      expect.arrayContaining([userCase.id, postCase.id]),
    );
  });

  test('when a report is malformed or its target is missing, then 400 or 404 and nothing is stored', async () => {
    const member = await t.createMember();
    const before = await t.models.Report.countDocuments();
    const cases: Array<[object, number, string]> = [
      [{ targetType: 'post', targetId: 999999, reason: 'x' }, 404, 'Post not found'],
      [{ targetType: 'comment', targetId: 999999, reason: 'x' }, 404, 'Comment not found'],
      [{ targetType: 'user', targetId: 999999, reason: 'x' }, 404, 'User not found'],
      [{ targetType: 'user', targetId: member.id, reason: 'x' }, 400, 'You cannot report yourself'],
      [
        { targetType: 'group', targetId: 1, reason: 'x' },
        400,
        'Target type must be one of post, comment, user',
      ],
      [{ targetType: 'post', targetId: 1, reason: '  ' }, 400, 'Choose what is wrong'],
      [{ targetType: 'post', targetId: '1', reason: 'x' }, 400, 'Target id must be a number'],
      [
        { targetType: 'post', targetId: { $gt: 0 }, reason: 'x' },
        400,
        'Target id must be a number',
      ],
      [
        { targetType: 'post', targetId: 1, reason: 'x', reporterId: 1 },
        400,
        'Unrecognized key: "reporterId"',
      ],
      [
        { targetType: 'post', targetId: 1, reason: 'r'.repeat(1001) },
        400,
        'Reason must be at most 1000 characters',
      ],
    ];
    for (const [body, status, message] of cases) {
      const res = await as(member.auth).post('/api/reports', body);
      expect({ body, status: res.status, message: res.body.message }).toEqual({
        body,
        status,
        message,
      });
    }
    expect(await t.models.Report.countDocuments()).toBe(before);
    const resolve = await asAdmin().post('/api/admin/reports/999999/resolve', { action: 'remove' });
    expect(resolve.status).toBe(404);
    const action = await asAdmin().post('/api/admin/reports/1/resolve', { action: 'ban' });
    expect(action.body).toEqual({ message: 'Action must be one of remove, dismiss' });
  });

  test('when a member reports more often than allowed, then 429', async () => {
    const member = await t.createMember();
    const client = t.withConfig({ rateLimits: { report: { max: 1, windowMs: 3_600_000 } } });
    const targets = [await t.createMember(), await t.createMember()];
    await client
      .post('/api/reports')
      .set('Authorization', member.auth)
      .send({ targetType: 'user', targetId: targets[0]!.id, reason: 'x' })
      .expect(201);
    const res = await client
      .post('/api/reports')
      .set('Authorization', member.auth)
      .send({ targetType: 'user', targetId: targets[1]!.id, reason: 'x' });
    expect(res.status).toBe(429);
  });
});

describe('summary and audit log', () => {
  test('when things wait for the admin, then the summary counts them', async () => {
    const before = (await asAdmin().get('/api/admin/summary').expect(200)).body;
    await apply(t, { name: 'Counted', contactInfo: 'counted@example.org' });
    const member = await t.createMember();
    await as(member.auth).post('/api/feedback', { feedback: 'Counted' }).expect(201);
    const after = (await asAdmin().get('/api/admin/summary').expect(200)).body;
    expect(after).toEqual({
      pendingApplications: before.pendingApplications + 1,
      openReports: before.openReports,
      pendingAppeals: before.pendingAppeals,
      pendingFeedback: before.pendingFeedback + 1,
    });
  });

  test('when the audit log is read, then entries name the admin, action, target and details, paged', async () => {
    const page = await asAdmin().get('/api/admin/audit?pageSize=2').expect(200);
    expect(page.body.items).toHaveLength(2);
    expect(page.body.total).toBeGreaterThan(2);
    expect(page.body.items[0]).toMatchObject({
      admin: { id: admin.id, name: 'Admin' },
      target: { type: expect.any(String), id: expect.any(Number) },
      details: expect.any(Object),
    });
    const next = await asAdmin().get('/api/admin/audit?pageSize=2&page=2').expect(200);
    expect(next.body.items[0].id).toBeLessThan(page.body.items[1].id);
  });
});
