/**
 * Issue 18: every admin route answers 401 without a token and 403 to a member, and changes
 * nothing for either; the administrator gets through.
 */
import { apply } from './admin-support';
import { useTestApp } from './test-app';

const t = useTestApp();

/** What any admin action could change, as stored (activity times and rate windows aside). */
async function snapshot() {
  const all = async (model: { find(f: object): { lean(): Promise<unknown[]> } }) =>
    model.find({}).lean();
  const m = t.models;
  return {
    applications: await all(m.AccountApplication),
    invitations: await all(m.Invitation),
    feedback: await all(m.Feedback),
    users: await m.User.find({}, { lastActiveAt: 0 }).lean(),
    posts: await all(m.Post),
    comments: await all(m.Comment),
    reports: await all(m.Report),
    cases: await all(m.ReportCase),
    audit: await all(m.AuditEntry),
    notifications: await all(m.Notification),
  };
}

describe('admin routes: who may call them', () => {
  let routes: Array<{ method: 'get' | 'post' | 'put'; path: string; body?: object }>;
  let adminAuth = '';

  beforeAll(async () => {
    const admin = await t.createMember({ id: t.config.adminUserId, name: 'Admin' });
    const author = await t.createMember({ name: 'Author' });
    const reporter = await t.createMember({ name: 'Reporter' });
    const applicationId = await apply(t, { name: 'Grace', contactInfo: 'grace@example.org' });
    const feedback = await t
      .http()
      .post('/api/feedback')
      .set('Authorization', author.auth)
      .send({ feedback: 'More dark mode' })
      .expect(201);
    const post = await t
      .http()
      .post('/api/posts')
      .set('Authorization', author.auth)
      .send({ content: 'Reported words' })
      .expect(201);
    const report = await t
      .http()
      .post('/api/reports')
      .set('Authorization', reporter.auth)
      .send({ targetType: 'post', targetId: post.body.id, reason: 'Spam' })
      .expect(201);
    const caseId = (await t.models.Report.findById(report.body.id).lean())!.caseId;
    adminAuth = admin.auth;
    routes = [
      { method: 'get', path: '/api/admin/summary' },
      { method: 'get', path: '/api/admin/applications?status=pending' },
      { method: 'post', path: `/api/admin/applications/${applicationId}/approve`, body: {} },
      {
        method: 'post',
        path: `/api/admin/applications/${applicationId}/reject`,
        body: { reason: 'No' },
      },
      { method: 'get', path: '/api/admin/feedback' },
      {
        method: 'put',
        path: `/api/admin/feedback/${feedback.body.id}`,
        body: { status: 'resolved', reply: 'Done' },
      },
      { method: 'get', path: '/api/admin/users?q=a' },
      { method: 'post', path: `/api/admin/users/${author.id}/suspend`, body: { reason: 'Spam' } },
      { method: 'post', path: `/api/admin/users/${author.id}/reactivate`, body: {} },
      { method: 'get', path: '/api/admin/reports' },
      { method: 'post', path: `/api/admin/reports/${caseId}/resolve`, body: { action: 'remove' } },
      { method: 'get', path: '/api/admin/audit' },
    ];
  });

  test('when a member calls any admin route, then 403 Admin access required and nothing changes', async () => {
    const member = await t.createMember({ name: 'Curious member' });
    const before = await snapshot();
    for (const route of routes) {
      const req = t.http()[route.method](route.path).set('Authorization', member.auth);
      const res = await (route.body ? req.send(route.body) : req);
      expect({
        route: `${route.method} ${route.path}`,
        status: res.status,
        body: res.body,
      }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 403,
        body: { message: 'Admin access required' },
      });
    }
    expect(await snapshot()).toEqual(before);
  });

  test('when nobody is signed in, then every admin route answers 401 and nothing changes', async () => {
    const before = await snapshot();
    for (const route of routes) {
      const req = t.http()[route.method](route.path);
      const res = await (route.body ? req.send(route.body) : req);
      expect({ route: route.path, status: res.status }).toEqual({ route: route.path, status: 401 });
    }
    expect(await snapshot()).toEqual(before);
  });

  test('when the administrator reads the lists, then they are answered and never cached', async () => {
    for (const route of routes.filter((r) => r.method === 'get')) {
      const res = await t.http().get(route.path).set('Authorization', adminAuth);
      expect({
        route: route.path,
        status: res.status,
        body: res.status === 200 ? null : res.body,
      }).toEqual({ route: route.path, status: 200, body: null });
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });
});
