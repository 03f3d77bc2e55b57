import Router from '@koa/router';
import {
  adminApplicationsQuerySchema,
  adminFeedbackQuerySchema,
  adminFeedbackUpdateSchema,
  adminPageQuerySchema,
  adminReportsQuerySchema,
  adminUsersQuerySchema,
  emptyRequestSchema,
  idParamSchema,
  rejectApplicationRequestSchema,
  resolveReportRequestSchema,
  suspendUserRequestSchema,
} from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { notFound } from '../../platform/errors';
import { parseInput } from '../../platform/validation';
import { APPLICATION_NOT_FOUND } from '../account-applications/applications';
import { requireAdmin } from '../auth/policy';
import { FEEDBACK_NOT_FOUND } from '../feedback/update-feedback';
import { REPORT_NOT_FOUND } from '../reports/reports';
import { USER_NOT_FOUND } from '../users/queries';
import { approveApplication, listApplications, rejectApplication } from './applications';
import { listFeedback, updateFeedback } from './feedback';
import { listMembers, reactivateMember, suspendMember } from './members';
import { listReports, resolveReport } from './reports';
import { listAudit, summary } from './summary';

/** A path id, or the 404 of the thing it names (an id that cannot exist is not found). */
function pathId(value: string | undefined, missing: string): number {
  const id = idParamSchema.safeParse(value);
  if (!id.success) throw notFound(missing);
  return id.data;
}

/**
 * Every `/api/admin/*` route of issue 18 (the analytics dashboard has its own module): 401
 * without a token, 403 for anyone but the administrator, checked before any input is read.
 */
export function adminRoutes(app: HttpContext) {
  const router = new Router<AppState>({ prefix: '/api/admin' });
  router.use(app.requireAuth, requireAdmin);
  const caller = (state: AppState) => currentUser(state);

  router.get('/summary', async (ctx) => {
    ctx.body = await summary(app);
  });

  router.get('/applications', async (ctx) => {
    ctx.body = await listApplications(app, parseInput(adminApplicationsQuerySchema, ctx.query));
  });
  router.post('/applications/:id/approve', async (ctx) => {
    const id = pathId(ctx.params.id, APPLICATION_NOT_FOUND);
    parseInput(emptyRequestSchema, ctx.request.body);
    ctx.body = await approveApplication(app, caller(ctx.state), id);
  });
  router.post('/applications/:id/reject', async (ctx) => {
    const id = pathId(ctx.params.id, APPLICATION_NOT_FOUND);
    const { reason } = parseInput(rejectApplicationRequestSchema, ctx.request.body);
    ctx.body = await rejectApplication(app, caller(ctx.state), id, reason);
  });

  router.get('/feedback', async (ctx) => {
    ctx.body = await listFeedback(app, parseInput(adminFeedbackQuerySchema, ctx.query));
  });
  router.put('/feedback/:id', async (ctx) => {
    const id = pathId(ctx.params.id, FEEDBACK_NOT_FOUND);
    const update = parseInput(adminFeedbackUpdateSchema, ctx.request.body);
    ctx.body = await updateFeedback(app, caller(ctx.state), id, update);
  });

  router.get('/users', async (ctx) => {
    ctx.body = await listMembers(app, parseInput(adminUsersQuerySchema, ctx.query));
  });
  router.post('/users/:id/suspend', async (ctx) => {
    const id = pathId(ctx.params.id, USER_NOT_FOUND);
    const { reason } = parseInput(suspendUserRequestSchema, ctx.request.body);
    ctx.body = await suspendMember(app, caller(ctx.state), id, reason);
  });
  router.post('/users/:id/reactivate', async (ctx) => {
    const id = pathId(ctx.params.id, USER_NOT_FOUND);
    parseInput(emptyRequestSchema, ctx.request.body);
    ctx.body = await reactivateMember(app, caller(ctx.state), id);
  });

  router.get('/reports', async (ctx) => {
    ctx.body = await listReports(app, parseInput(adminReportsQuerySchema, ctx.query));
  });
  router.post('/reports/:id/resolve', async (ctx) => {
    const id = pathId(ctx.params.id, REPORT_NOT_FOUND);
    const { action } = parseInput(resolveReportRequestSchema, ctx.request.body);
    ctx.body = await resolveReport(app, caller(ctx.state), id, action);
  });

  router.get('/audit', async (ctx) => {
    ctx.body = await listAudit(app, parseInput(adminPageQuerySchema, ctx.query));
  });

  return router;
}
