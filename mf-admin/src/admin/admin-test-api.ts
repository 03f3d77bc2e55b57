// Test helper for the admin pages' tests: an admin session whose API answers `handler`, else
// the summary counts, else no failing e-mail, else 404.
import { mockApi, type ApiHandler } from '@campus/kit/testing';

export const SUMMARY = {
  pendingApplications: 0,
  openReports: 0,
  pendingAppeals: 0,
  pendingFeedback: 0,
};

export function adminApi(handler: ApiHandler) {
  return mockApi(
    async (call) =>
      (await handler(call)) ??
      (call.pathname === '/api/admin/summary'
        ? { status: 200, body: SUMMARY }
        : call.pathname === '/api/admin/mail'
          ? { status: 200, body: pageOf([]) }
          : undefined),
    { roles: ['member', 'admin'] },
  );
}

export const pageOf = <T>(items: T[], total = items.length, page = 1) => ({
  items,
  total,
  page,
  pageSize: 20,
});
