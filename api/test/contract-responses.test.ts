import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { z } from 'zod';
import {
  errorResponseSchema,
  responseSchemas,
  suspendedSignInErrorSchema,
  type ApiCall,
  type Notification,
} from '@campus/contracts';
import { expectContract } from './contract';
import { uniqueEmail, useTestApp } from './test-app';

/**
 * Every call of the API answers exactly its contract (`responseSchemas` in @campus/contracts),
 * checked on real responses; every route of the app has a contract, and every contract is
 * exercised here.
 */
const t = useTestApp();
/** Routes whose answer is not a JSON body. */
const NOT_JSON = ['GET /api/stream'];
const checked = new Set<ApiCall>();
type Response = { status: number; body: unknown };

/** Checks a response against the contract of `call` and returns its body, typed. */
async function answers<C extends ApiCall>(
  call: C,
  response: Promise<Response> | Response,
): Promise<z.output<(typeof responseSchemas)[C]>> {
  const { status, body } = await response;
  expect(status).toBeLessThan(300);
  checked.add(call);
  return expectContract(responseSchemas[call] as z.ZodType, body) as z.output<
    (typeof responseSchemas)[C]
  >;
}

async function verificationToken(email: string): Promise<string> {
  await t.mailSent();
  const dir = path.join(t.dataDir, 'outbox');
  for (const file of (await fs.readdir(dir)).filter((f) => f.endsWith('.json'))) {
    const mail = JSON.parse(await fs.readFile(path.join(dir, file), 'utf8'));
    if (mail.to === email) return mail.links.verification.split('/').at(-1);
  }
  throw new Error(`no e-mail to ${email}`);
}

async function resetToken(email: string): Promise<string> {
  await t.mailSent();
  const dir = path.join(t.dataDir, 'outbox');
  for (const file of (await fs.readdir(dir))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .reverse()) {
    const mail = JSON.parse(await fs.readFile(path.join(dir, file), 'utf8'));
    if (mail.to === email && mail.links.reset) return mail.links.reset.split('/').at(-1);
  }
  throw new Error(`no reset e-mail to ${email}`);
}

/** Post search, tag pages, trending, tag search and tag follows (issue 40), with a tagged post. */
async function contractsOfSearchAndTags(auth: string) {
  const http = () => t.http();
  await http()
    .post('/api/posts')
    .set('Authorization', auth)
    .send({ content: 'Contract check for #contracts and searching' })
    .expect(201);
  const found = await answers(
    'GET /api/search/posts',
    http().get('/api/search/posts?q=searching').set('Authorization', auth),
  );
  expect(found.posts.length).toBeGreaterThan(0);
  await answers(
    'GET /api/search/tags',
    http().get('/api/search/tags?q=contr').set('Authorization', auth),
  );
  await answers(
    'GET /api/tags/trending',
    http().get('/api/tags/trending').set('Authorization', auth),
  );
  await answers(
    'POST /api/tags/:tag/follow',
    http().post('/api/tags/contracts/follow').set('Authorization', auth).send({}),
  );
  await answers(
    'GET /api/tags/followed',
    http().get('/api/tags/followed').set('Authorization', auth),
  );
  const page = await answers(
    'GET /api/tags/:tag',
    http().get('/api/tags/contracts').set('Authorization', auth),
  );
  expect(page.posts.length).toBe(1);
  await answers(
    'DELETE /api/tags/:tag/follow',
    http().delete('/api/tags/contracts/follow').set('Authorization', auth),
  );
}

describe('API responses and their contracts', () => {
  test('when every call is made, then each answers exactly its contract', async () => {
    const http = () => t.http();
    const admin = await t.createMember({ id: t.config.adminUserId, name: 'Admin' });

    // Accounts.
    const email = uniqueEmail('new');
    const password = 'a long enough password';
    const browser = t.browser();
    await answers(
      'POST /api/auth/register',
      browser.post('/api/auth/register').send({ name: 'Newcomer', email, password }),
    );
    await answers('GET /api/auth/registration-rules', http().get('/api/auth/registration-rules'));
    const token = await verificationToken(email);
    await answers('GET /api/auth/verify/:token', browser.get(`/api/auth/verify/${token}`));
    // A link opened elsewhere than in the registering browser: a password is chosen first.
    const elsewhere = uniqueEmail('elsewhere');
    await http()
      .post('/api/auth/register')
      .send({ name: 'Elsewhere', email: elsewhere, password })
      .expect(201);
    const elsewhereToken = await verificationToken(elsewhere);
    const asked = await answers(
      'GET /api/auth/verify/:token',
      http().get(`/api/auth/verify/${elsewhereToken}`),
    );
    expect(asked.passwordRequired).toBe(true);
    await answers(
      'POST /api/auth/verify/:token',
      http().post(`/api/auth/verify/${elsewhereToken}`).send({ password }),
    );
    const login = await answers(
      'POST /api/auth/login',
      http().post('/api/auth/login').send({ email, password }),
    );
    const ada = { id: login.user.id, auth: `Bearer ${login.token}` };
    const me = await answers(
      'GET /api/auth/me',
      http().get('/api/auth/me').set('Authorization', ada.auth),
    );
    expect(me.roles).toEqual(['member']);
    const adminMe = await answers(
      'GET /api/auth/me',
      http().get('/api/auth/me').set('Authorization', admin.auth),
    );
    expect(adminMe.roles).toEqual(['member', 'admin']);

    // Profiles, uploads and follows.
    const png = await sharp({
      create: { width: 8, height: 8, channels: 3, background: '#3366ff' },
    })
      .png()
      .toBuffer();
    const upload = await answers(
      'POST /api/upload/avatar',
      http()
        .post('/api/upload/avatar')
        .set('Authorization', ada.auth)
        .attach('avatar', png, 'me.png'),
    );
    await answers(
      'PUT /api/users/:id',
      http()
        .put(`/api/users/${ada.id}`)
        .set('Authorization', ada.auth)
        .send({ name: 'Ada', bio: 'Hi', avatarUrl: upload.avatarUrl }),
    );
    await answers(
      'POST /api/users/:id/follow',
      http().post(`/api/users/${admin.id}/follow`).set('Authorization', ada.auth).send({}),
    );
    await answers(
      'GET /api/users/:id/following',
      http().get(`/api/users/${ada.id}/following`).set('Authorization', ada.auth),
    );
    await answers(
      'GET /api/users/:id/followers',
      http().get(`/api/users/${admin.id}/followers`).set('Authorization', ada.auth),
    );

    // Posts with pictures, comments, likes, reposts.
    const picture = await answers(
      'POST /api/media',
      http().post('/api/media').set('Authorization', admin.auth).attach('image', png, 'a.png'),
    );
    const quoted = await answers(
      'POST /api/media',
      http().post('/api/media').set('Authorization', ada.auth).attach('image', png, 'b.png'),
    );
    const post = await answers(
      'POST /api/posts',
      http()
        .post('/api/posts')
        .set('Authorization', admin.auth)
        .send({ content: 'Welcome', isJdTagged: true, images: [{ id: picture.id, alt: 'Hi' }] }),
    );
    expect(post.images).toHaveLength(1);
    const repost = await answers(
      'POST /api/posts/:id/repost',
      http()
        .post(`/api/posts/${post.id}/repost`)
        .set('Authorization', ada.auth)
        .send({ comment: 'Look', images: [{ id: quoted.id }] }),
    );
    expect(repost.images).toHaveLength(1);
    expect(repost.originalPost?.images).toHaveLength(1);
    expect(repost.originalPost).toMatchObject({ id: post.id, canDelete: false });
    expect(repost.canDelete).toBe(true);
    await answers(
      'POST /api/posts/:id/like',
      http().post(`/api/posts/${post.id}/like`).set('Authorization', ada.auth),
    );
    const comment = await answers(
      'POST /api/posts/:id/comments',
      http()
        .post(`/api/posts/${post.id}/comments`)
        .set('Authorization', ada.auth)
        .send({ content: 'First', syncToTimeline: true }),
    );
    await answers(
      'POST /api/posts/:id/comments',
      http()
        .post(`/api/posts/${post.id}/comments`)
        .set('Authorization', admin.auth)
        .send({ content: 'Reply', parentId: comment.id }),
    );
    await answers(
      'POST /api/comments/:id/like',
      http().post(`/api/comments/${comment.id}/like`).set('Authorization', admin.auth),
    );
    const detail = await answers(
      'GET /api/posts/:id',
      http().get(`/api/posts/${post.id}`).set('Authorization', ada.auth),
    );
    expect(detail.comments[0]?.replies).toHaveLength(1);
    const more = await answers(
      'GET /api/posts/:id/comments',
      http().get(`/api/posts/${post.id}/comments?cursor=0.0`).set('Authorization', ada.auth),
    );
    expect(more.comments.map((c) => c.id)).toEqual(detail.comments.map((c) => c.id));
    // Your own words: edits with their versions, a comment deleted as a placeholder.
    const edited = await answers(
      'PUT /api/posts/:id',
      http()
        .put(`/api/posts/${post.id}`)
        .set('Authorization', admin.auth)
        .send({ content: 'Welcome, all' }),
    );
    expect(edited.editedAt).toEqual(expect.any(String));
    const postVersions = await answers(
      'GET /api/posts/:id/versions',
      http().get(`/api/posts/${post.id}/versions`).set('Authorization', ada.auth),
    );
    expect(postVersions.versions.map((v) => v.content)).toEqual(['Welcome, all', 'Welcome']);
    const second = await answers(
      'POST /api/posts/:id/comments',
      http()
        .post(`/api/posts/${post.id}/comments`)
        .set('Authorization', ada.auth)
        .send({ content: 'Second' }),
    );
    await answers(
      'PUT /api/comments/:id',
      http()
        .put(`/api/comments/${second.id}`)
        .set('Authorization', ada.auth)
        .send({ content: 'Second, edited' }),
    );
    await answers(
      'GET /api/comments/:id/versions',
      http().get(`/api/comments/${second.id}/versions`).set('Authorization', admin.auth),
    );
    const answer = await http()
      .post(`/api/posts/${post.id}/comments`)
      .set('Authorization', admin.auth)
      .send({ content: 'Answer', parentId: second.id })
      .expect(201);
    const gone = await answers(
      'DELETE /api/comments/:id',
      http().delete(`/api/comments/${second.id}`).set('Authorization', ada.auth),
    );
    expect(gone.placeholder).toBe(true);
    const withPlaceholder = await answers(
      'GET /api/posts/:id',
      http().get(`/api/posts/${post.id}`).set('Authorization', ada.auth),
    );
    expect(withPlaceholder.comments.find((c) => c.id === second.id)?.deleted).toBe(true);
    // Its last reply deleted, the placeholder goes too (and Ada's reply notification with it).
    await http()
      .delete(`/api/comments/${answer.body.id}`)
      .set('Authorization', admin.auth)
      .expect(200);
    for (const query of ['', '?tab=for-you', '?tab=following', '?tab=jd', '?topFilter=true']) {
      const page = await answers(
        'GET /api/posts',
        http().get(`/api/posts${query}`).set('Authorization', ada.auth),
      );
      expect(page.length).toBeGreaterThan(0);
    }
    await answers(
      'GET /api/users/:id',
      http().get(`/api/users/${ada.id}`).set('Authorization', admin.auth),
    );
    await answers(
      'DELETE /api/posts/:id',
      http().delete(`/api/posts/${repost.id}`).set('Authorization', ada.auth),
    );
    await http()
      .post(`/api/posts/${post.id}/repost`)
      .set('Authorization', ada.auth)
      .send({})
      .expect(201);
    const undone = await answers(
      'DELETE /api/posts/:id/repost',
      http().delete(`/api/posts/${post.id}/repost`).set('Authorization', ada.auth),
    );
    expect(undone).toMatchObject({ postId: post.id, reposted: false, repostsCount: 0 });

    // Feedback, account applications, settings.
    await answers(
      'POST /api/feedback',
      http().post('/api/feedback').set('Authorization', ada.auth).send({ feedback: 'Great' }),
    );
    await answers(
      'POST /api/account-application',
      http()
        .post('/api/account-application')
        .send({ name: 'Grace', contactInfo: 'grace@example.org', message: 'Alumna, 1998' }),
    );
    await answers('GET /api/settings', http().get('/api/settings'));

    // Privacy and safety: block, mute, muted words, the lists, and each undone.
    const other = await t.createMember({ name: 'Other' });
    await answers(
      'POST /api/users/:id/block',
      http().post(`/api/users/${other.id}/block`).set('Authorization', ada.auth),
    );
    await answers(
      'POST /api/users/:id/mute',
      http()
        .post(`/api/users/${other.id}/mute`)
        .set('Authorization', ada.auth)
        .send({ duration: '7d' }),
    );
    const word = await answers(
      'POST /api/safety/muted-words',
      http()
        .post('/api/safety/muted-words')
        .set('Authorization', ada.auth)
        .send({ phrase: 'welcome' }),
    );
    const mutedPage = await answers(
      'GET /api/posts',
      http().get('/api/posts').set('Authorization', ada.auth),
    );
    expect(mutedPage.some((p) => p.mutedWord === 'welcome')).toBe(true);
    const lists = await answers(
      'GET /api/safety',
      http().get('/api/safety').set('Authorization', ada.auth),
    );
    expect([lists.blocked.length, lists.muted.length, lists.words.length]).toEqual([1, 1, 1]);
    await answers(
      'DELETE /api/users/:id/block',
      http().delete(`/api/users/${other.id}/block`).set('Authorization', ada.auth),
    );
    await answers(
      'DELETE /api/users/:id/mute',
      http().delete(`/api/users/${other.id}/mute`).set('Authorization', ada.auth),
    );
    await answers(
      'DELETE /api/safety/muted-words/:id',
      http().delete(`/api/safety/muted-words/${word.id}`).set('Authorization', ada.auth),
    );

    // Notifications: the admin has one of almost every type.
    const notifications = await answers(
      'GET /api/notifications',
      http().get('/api/notifications').set('Authorization', admin.auth),
    );
    const types = new Set(notifications.map((n: Notification) => n.type));
    expect([...types].sort()).toEqual(
      ['account_application', 'comment', 'feedback', 'follow', 'like', 'repost'].sort(),
    );
    const replies = await answers(
      'GET /api/notifications',
      http().get('/api/notifications').set('Authorization', ada.auth),
    );
    expect(replies.map((n: Notification) => n.type)).toEqual(['reply']);
    const grouped = await answers(
      'GET /api/notifications?grouped=true',
      http().get('/api/notifications?grouped=true').set('Authorization', admin.auth),
    );
    expect(grouped.groups.length).toBeGreaterThan(0);
    await answers(
      'PUT /api/notifications/read',
      http()
        .put('/api/notifications/read')
        .set('Authorization', admin.auth)
        .send({ keys: [grouped.groups[0]!.key] }),
    );
    // People search and who to follow.
    const found = await answers(
      'GET /api/users',
      http().get('/api/users?q=adm').set('Authorization', ada.auth),
    );
    expect(found.map((u) => u.id)).toContain(admin.id);
    await answers(
      'GET /api/users/suggestions',
      http().get('/api/users/suggestions').set('Authorization', ada.auth),
    );

    // Mentions and bookmarks (issue 40).
    const candidates = await answers(
      'GET /api/users/mention-suggestions',
      http().get('/api/users/mention-suggestions?q=adm').set('Authorization', ada.auth),
    );
    expect(candidates.map((c) => c.id)).toContain(admin.id);
    const mentioning = await answers(
      'POST /api/posts',
      http()
        .post('/api/posts')
        .set('Authorization', ada.auth)
        .send({ content: 'Thanks @Admin', mentions: [admin.id] }),
    );
    expect(mentioning.mentions).toEqual([{ id: admin.id, start: 7, end: 13 }]);
    const mentioned = await answers(
      'GET /api/notifications',
      http().get('/api/notifications').set('Authorization', admin.auth),
    );
    expect(mentioned[0]).toMatchObject({ type: 'mention', post: { id: mentioning.id } });
    await answers(
      'POST /api/posts/:id/bookmark',
      http().post(`/api/posts/${post.id}/bookmark`).set('Authorization', ada.auth).send({}),
    );
    const bookmarked = await answers(
      'GET /api/bookmarks',
      http().get('/api/bookmarks').set('Authorization', ada.auth),
    );
    expect(bookmarked.posts.map((p) => [p.id, p.isBookmarked])).toEqual([[post.id, true]]);
    await answers(
      'DELETE /api/posts/:id/bookmark',
      http().delete(`/api/posts/${post.id}/bookmark`).set('Authorization', ada.auth),
    );

    // Post search and tags (issue 40).
    await contractsOfSearchAndTags(ada.auth);
    await answers(
      'PUT /api/notifications/:id/read',
      http()
        .put(`/api/notifications/${notifications[0]!.id}/read`)
        .set('Authorization', admin.auth),
    );
    await answers(
      'PUT /api/notifications/read-all',
      http().put('/api/notifications/read-all').set('Authorization', admin.auth),
    );

    // The admin dashboard.
    for (const call of [
      'GET /api/analytics/overview',
      'GET /api/analytics/user-growth',
      'GET /api/analytics/engagement',
      'GET /api/analytics/active-users',
    ] as const) {
      const url = call.slice('GET '.length);
      await answers(call, http().get(url).set('Authorization', admin.auth));
    }

    // Admin operations (issue 18): applications and invitations, feedback, members, reports.
    const asAdmin = <R extends { set(name: string, value: string): R }>(req: R) =>
      req.set('Authorization', admin.auth);
    await answers('GET /api/admin/summary', asAdmin(http().get('/api/admin/summary')));
    const applications = await answers(
      'GET /api/admin/applications',
      asAdmin(http().get('/api/admin/applications?status=pending')),
    );
    const approved = await answers(
      'POST /api/admin/applications/:id/approve',
      asAdmin(http().post(`/api/admin/applications/${applications.items[0]!.id}/approve`)),
    );
    const invitation = new URL(approved.invitationUrl).searchParams.get('invitation');
    await answers('GET /api/invitations/:token', http().get(`/api/invitations/${invitation}`));
    const rejectedId = (
      await http()
        .post('/api/account-application')
        .send({ name: 'Eve', contactInfo: 'by phone', message: 'Not an alum' })
    ).body.id;
    await answers(
      'POST /api/admin/applications/:id/reject',
      asAdmin(http().post(`/api/admin/applications/${rejectedId}/reject`)).send({ reason: 'No' }),
    );
    const feedbackList = await answers(
      'GET /api/admin/feedback',
      asAdmin(http().get('/api/admin/feedback')),
    );
    await answers(
      'PUT /api/admin/feedback/:id',
      asAdmin(http().put(`/api/admin/feedback/${feedbackList.items[0]!.id}`)).send({
        status: 'resolved',
        reply: 'Thank you',
      }),
    );
    await answers(
      'POST /api/reports',
      http()
        .post('/api/reports')
        .set('Authorization', ada.auth)
        .send({ targetType: 'post', targetId: post.id, reason: 'Spam' }),
    );
    const reportList = await answers(
      'GET /api/admin/reports',
      asAdmin(http().get('/api/admin/reports')),
    );
    expect(reportList.items[0]!.target.images).toHaveLength(1);
    await answers(
      'POST /api/admin/reports/:id/resolve',
      asAdmin(http().post(`/api/admin/reports/${reportList.items[0]!.id}/resolve`)).send({
        action: 'dismiss',
      }),
    );
    // Reasons and appeals (issue 38): a removal with its reason, appealed and lifted.
    const removable = await http()
      .post('/api/posts')
      .set('Authorization', ada.auth)
      .send({ content: 'To be removed and appealed' });
    await http()
      .post('/api/reports')
      .set('Authorization', admin.auth)
      .send({ targetType: 'post', targetId: removable.body.id, category: 'spam' });
    const removalCase = (
      await asAdmin(http().get('/api/admin/reports?category=spam'))
    ).body.items.find((r: { targetId: number }) => r.targetId === removable.body.id);
    await answers(
      'POST /api/admin/reports/:id/resolve',
      asAdmin(http().post(`/api/admin/reports/${removalCase.id}/resolve`)).send({
        action: 'remove',
        category: 'spam',
        reason: 'Advertising',
      }),
    );
    const removal = (
      await http().get('/api/notifications').set('Authorization', ada.auth)
    ).body.find((n: Notification) => n.type === 'content_removed');
    const appeal = await answers(
      'POST /api/appeals',
      http()
        .post('/api/appeals')
        .set('Authorization', ada.auth)
        .send({ decisionId: removal.decisionId, text: 'It was not an advert.' }),
    );
    await answers('GET /api/admin/appeals', asAdmin(http().get('/api/admin/appeals')));
    await answers(
      'POST /api/admin/appeals/:id/decide',
      asAdmin(http().post(`/api/admin/appeals/${appeal.id}/decide`)).send({ outcome: 'lift' }),
    );
    await answers('GET /api/admin/users', asAdmin(http().get('/api/admin/users?q=ada')));
    await answers(
      'POST /api/admin/users/:id/suspend',
      asAdmin(http().post(`/api/admin/users/${ada.id}/suspend`)).send({ reason: 'Testing' }),
    );
    const suspendedSignIn = await http().post('/api/auth/login').send({ email, password });
    expect(suspendedSignIn.status).toBe(403);
    expectContract(suspendedSignInErrorSchema, suspendedSignIn.body);
    await answers(
      'POST /api/appeals/suspension',
      http()
        .post('/api/appeals/suspension')
        .send({ ticket: suspendedSignIn.body.suspension.ticket, text: 'Please.' }),
    );
    await answers(
      'POST /api/admin/users/:id/reactivate',
      asAdmin(http().post(`/api/admin/users/${ada.id}/reactivate`)),
    );
    await answers('GET /api/admin/audit', asAdmin(http().get('/api/admin/audit')));
    // A mail that failed for good, as the mail queue leaves it (mail-queue.test.ts makes one fail).
    await t.models.QueuedMail.create({
      _id: await t.context.ids.nextIdOfBlock('mails'),
      state: 'failed',
      to: 'gone@campus.edu',
      subject: 'Verify your Campus account',
      text: 'Hello',
      html: '<p>Hello</p>',
      links: {},
      attempts: 8,
      lastError: 'connect ECONNREFUSED 127.0.0.1:25',
      nextAttemptAt: null,
      createdAt: new Date(),
    });
    const failing = await answers('GET /api/admin/mail', asAdmin(http().get('/api/admin/mail')));
    await answers(
      'POST /api/admin/mail/:id/retry',
      asAdmin(http().post(`/api/admin/mail/${failing.items[0]!.id}/retry`)),
    );

    // The account lifecycle, on a member of its own: it ends with the account deleted.
    const leaver = await t.createMember({ name: 'Leaver' });
    await answers(
      'POST /api/auth/forgot-password',
      http().post('/api/auth/forgot-password').send({ email: leaver.email }),
    );
    const leaverReset = await resetToken(leaver.email);
    const usable = await answers(
      'GET /api/auth/reset-password/:token',
      http().get(`/api/auth/reset-password/${leaverReset}`),
    );
    expect(usable).toEqual({ valid: true });
    await answers(
      'POST /api/auth/reset-password',
      http()
        .post('/api/auth/reset-password')
        .send({ token: leaverReset, password: 'a reset password' }),
    );
    const used = await answers(
      'GET /api/auth/reset-password/:token',
      http().get(`/api/auth/reset-password/${leaverReset}`),
    );
    expect(used.valid).toBe(false);
    await answers(
      'POST /api/auth/resend-verification',
      http()
        .post('/api/auth/resend-verification')
        .send({ email: uniqueEmail('nobody') }),
    );
    const back = await answers(
      'POST /api/auth/login',
      http().post('/api/auth/login').send({ email: leaver.email, password: 'a reset password' }),
    );
    const changed = await answers(
      'PUT /api/auth/password',
      http()
        .put('/api/auth/password')
        .set('Authorization', `Bearer ${back.token}`)
        .send({ currentPassword: 'a reset password', newPassword: 'a changed password' }),
    );
    await answers(
      'POST /api/auth/logout-all',
      http().post('/api/auth/logout-all').set('Authorization', `Bearer ${changed.token}`),
    );
    const last = await answers(
      'POST /api/auth/login',
      http().post('/api/auth/login').send({ email: leaver.email, password: 'a changed password' }),
    );
    // A browser's session: its cookies, its sessions list, one ended, a refresh and a sign-out.
    await http()
      .post('/api/auth/login')
      .set('User-Agent', 'SpareDevice/1.0')
      .send({ email: leaver.email, password: 'a changed password' });
    const signedIn = await http()
      .post('/api/auth/login')
      .send({ email: leaver.email, password: 'a changed password' });
    const cookies = (signedIn.headers['set-cookie'] as unknown as string[]).map(
      (c) => c.split(';')[0]!,
    );
    const fromApp = (req: ReturnType<ReturnType<typeof http>['post']>) =>
      req
        .set('Cookie', cookies.join('; '))
        .set('Origin', t.config.allowedOrigins[0]!)
        .set('X-Requested-With', 'campus');
    const sessions = await answers(
      'GET /api/auth/sessions',
      http().get('/api/auth/sessions').set('Cookie', cookies.join('; ')),
    );
    expect(sessions.find((s) => s.current)).toBeDefined();
    const spare = sessions.find((s) => s.device === 'SpareDevice')!;
    await answers(
      'DELETE /api/auth/sessions/:id',
      fromApp(http().delete(`/api/auth/sessions/${spare.id}`)),
    );
    const refreshed = await fromApp(http().post('/api/auth/refresh'));
    await answers('POST /api/auth/refresh', refreshed);
    const renewed = (refreshed.headers['set-cookie'] as unknown as string[]).map(
      (c) => c.split(';')[0]!,
    );
    await answers(
      'POST /api/auth/logout',
      http()
        .post('/api/auth/logout')
        .set('Cookie', renewed.join('; '))
        .set('Origin', t.config.allowedOrigins[0]!)
        .set('X-Requested-With', 'campus'),
    );
    await answers(
      'DELETE /api/users/:id',
      http()
        .delete(`/api/users/${leaver.id}`)
        .set('Authorization', `Bearer ${last.token}`)
        .send({ password: 'a changed password' }),
    );
  });

  test('when calls fail, then the body is exactly an error ({ message }; verify adds error)', async () => {
    const ada = await t.createMember();
    const failures = [
      t.http().get('/api/auth/me'),
      t.http().get('/api/posts/999999').set('Authorization', ada.auth),
      t.http().get('/api/analytics/overview').set('Authorization', ada.auth),
      t.http().post('/api/posts').set('Authorization', ada.auth).send({ content: '' }),
    ];
    for (const res of await Promise.all(failures)) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expectContract(errorResponseSchema, res.body);
    }
    const verify = await t.http().get('/api/auth/verify/not-a-valid-token-at-all-0000');
    expect(verify.status).toBe(400);
    expectContract(responseSchemas['GET /api/auth/verify/:token'], verify.body);
  });

  test('when the app is built, then every route it serves has a contract and every contract was checked', () => {
    const { app } = t.another({});
    const routes = new Set<string>();
    for (const middleware of app.middleware) {
      const router = (
        middleware as { router?: { stack: Array<{ methods: string[]; path: string }> } }
      ).router;
      for (const layer of router?.stack ?? []) {
        for (const method of layer.methods) {
          if (method !== 'HEAD') routes.add(`${method} ${layer.path}`);
        }
      }
    }
    const contracts = Object.keys(responseSchemas).sort();
    // A query variant (`GET /api/notifications?grouped=true`) is a contract of the same route;
    // the live stream answers text/event-stream, not JSON (test/stream.test.ts checks it).
    const routed = [...new Set(contracts.map((c) => c.split('?')[0]!))].sort();
    expect([...routes].filter((r) => !NOT_JSON.includes(r)).sort()).toEqual(routed);
    expect([...checked].sort()).toEqual(contracts);
  });
});
