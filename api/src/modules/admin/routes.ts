import Router from '@koa/router';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { APPEAL_NOT_FOUND, calls } from '@campus/contracts';
import { APPLICATION_NOT_FOUND } from '../account-applications/applications';
import { requireAdmin } from '../auth/policy';
import { FEEDBACK_NOT_FOUND } from '../feedback/update-feedback';
import { REPORT_NOT_FOUND } from '../reports/reports';
import { USER_NOT_FOUND } from '../users/queries';
import { decideAppeal, listAppeals } from './appeals';
import { approveApplication, listApplications, rejectApplication } from './applications';
import { listFeedback, updateFeedback } from './feedback';
import { listTroubledMail, MAIL_NOT_FOUND, retryMail } from './mail';
import { listMembers, reactivateMember, suspendMember } from './members';
import { listReports, resolveReport } from './reports';
import { listAudit, summary } from './summary';

/**
 * Every `/api/admin/*` route (the analytics dashboard has its own module): 401 without a token,
 * 403 for anyone but the administrator, checked before any input is read. An id that cannot
 * exist names nothing: the 404 of what it would name.
 */
export function adminRoutes(app: HttpContext) {
  const router = new Router<AppState>();
  const admin = (notFound?: string) => ({ before: [app.requireAuth, requireAdmin], notFound });
  const caller = (ctx: { state: AppState }) => currentUser(ctx.state);

  bindCall(router, calls.adminSummary, admin(), () => summary(app));
  bindCall(router, calls.adminApplications, admin(), (_ctx, { query }) =>
    listApplications(app, query),
  );
  bindCall(router, calls.approveApplication, admin(APPLICATION_NOT_FOUND), (ctx, { params }) =>
    approveApplication(app, caller(ctx), params.id),
  );
  bindCall(router, calls.rejectApplication, admin(APPLICATION_NOT_FOUND), (ctx, { params, body }) =>
    rejectApplication(app, caller(ctx), params.id, body.reason),
  );
  bindCall(router, calls.adminFeedback, admin(), (_ctx, { query }) => listFeedback(app, query));
  bindCall(router, calls.updateFeedback, admin(FEEDBACK_NOT_FOUND), (ctx, { params, body }) =>
    updateFeedback(app, caller(ctx), params.id, body),
  );
  bindCall(router, calls.adminMembers, admin(), (_ctx, { query }) => listMembers(app, query));
  bindCall(router, calls.suspendMember, admin(USER_NOT_FOUND), (ctx, { params, body }) =>
    suspendMember(app, caller(ctx), params.id, body),
  );
  bindCall(router, calls.reactivateMember, admin(USER_NOT_FOUND), (ctx, { params }) =>
    reactivateMember(app, caller(ctx), params.id),
  );
  bindCall(router, calls.adminReports, admin(), (_ctx, { query }) => listReports(app, query));
  bindCall(router, calls.resolveReport, admin(REPORT_NOT_FOUND), (ctx, { params, body }) =>
    resolveReport(app, caller(ctx), params.id, body),
  );
  bindCall(router, calls.adminAppeals, admin(), (_ctx, { query }) => listAppeals(app, query));
  bindCall(router, calls.decideAppeal, admin(APPEAL_NOT_FOUND), (ctx, { params, body }) =>
    decideAppeal(app, caller(ctx), params.id, body),
  );
  bindCall(router, calls.auditLog, admin(), (_ctx, { query }) => listAudit(app, query));
  bindCall(router, calls.adminMail, admin(), (_ctx, { query }) => listTroubledMail(app, query));
  bindCall(router, calls.retryMail, admin(MAIL_NOT_FOUND), (ctx, { params }) =>
    retryMail(app, caller(ctx), params.id),
  );
  return router;
}
