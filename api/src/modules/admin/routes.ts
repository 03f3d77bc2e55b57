import Router from '@koa/router';
import type { Middleware } from 'koa';
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
import { currentUser, type AppState } from '../../platform/auth';
import { notFound } from '../../platform/errors';
import { parseInput } from '../../platform/validation';
import { APPLICATION_NOT_FOUND } from '../account-applications/service';
import { requireAdmin } from '../auth/policy';
import { FEEDBACK_NOT_FOUND } from '../feedback/service';
import { REPORT_NOT_FOUND } from '../reports/service';
import { USER_NOT_FOUND } from '../users/service';
import type { AdminOptions, AdminService } from './service';

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
export function adminRoutes(
  admin: AdminService,
  requireAuth: Middleware<AppState>,
  options: AdminOptions,
) {
  const router = new Router<AppState>({ prefix: '/api/admin' });
  router.use(requireAuth, requireAdmin);
  const caller = (state: AppState) => currentUser(state);

  router.get('/summary', async (ctx) => {
    ctx.body = await admin.summary();
  });

  router.get('/applications', async (ctx) => {
    ctx.body = await admin.listApplications(parseInput(adminApplicationsQuerySchema, ctx.query));
  });
  router.post('/applications/:id/approve', async (ctx) => {
    const id = pathId(ctx.params.id, APPLICATION_NOT_FOUND);
    parseInput(emptyRequestSchema, ctx.request.body);
    ctx.body = await admin.approveApplication(caller(ctx.state), id, options);
  });
  router.post('/applications/:id/reject', async (ctx) => {
    const id = pathId(ctx.params.id, APPLICATION_NOT_FOUND);
    const { reason } = parseInput(rejectApplicationRequestSchema, ctx.request.body);
    ctx.body = await admin.rejectApplication(caller(ctx.state), id, reason, options);
  });

  router.get('/feedback', async (ctx) => {
    ctx.body = await admin.listFeedback(parseInput(adminFeedbackQuerySchema, ctx.query), options);
  });
  router.put('/feedback/:id', async (ctx) => {
    const id = pathId(ctx.params.id, FEEDBACK_NOT_FOUND);
    const update = parseInput(adminFeedbackUpdateSchema, ctx.request.body);
    ctx.body = await admin.updateFeedback(caller(ctx.state), id, update, options);
  });

  router.get('/users', async (ctx) => {
    ctx.body = await admin.listMembers(parseInput(adminUsersQuerySchema, ctx.query), options);
  });
  router.post('/users/:id/suspend', async (ctx) => {
    const id = pathId(ctx.params.id, USER_NOT_FOUND);
    const { reason } = parseInput(suspendUserRequestSchema, ctx.request.body);
    ctx.body = await admin.suspendMember(caller(ctx.state), id, reason, options);
  });
  router.post('/users/:id/reactivate', async (ctx) => {
    const id = pathId(ctx.params.id, USER_NOT_FOUND);
    parseInput(emptyRequestSchema, ctx.request.body);
    ctx.body = await admin.reactivateMember(caller(ctx.state), id, options);
  });

  router.get('/reports', async (ctx) => {
    ctx.body = await admin.listReports(parseInput(adminReportsQuerySchema, ctx.query), options);
  });
  router.post('/reports/:id/resolve', async (ctx) => {
    const id = pathId(ctx.params.id, REPORT_NOT_FOUND);
    const { action } = parseInput(resolveReportRequestSchema, ctx.request.body);
    ctx.body = await admin.resolveReport(caller(ctx.state), id, action, options);
  });

  router.get('/audit', async (ctx) => {
    ctx.body = await admin.listAudit(parseInput(adminPageQuerySchema, ctx.query), options);
  });

  return router;
}
