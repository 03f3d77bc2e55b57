import { useSWRConfig, type SWRResponse } from 'swr';
import type { CallQuery, callRoutes } from '@campus/contracts';
import { callTarget, type CallTargetOptions } from '@campus/kit/api';
import { callKey, keys, useCallData, type CallKey, type KeyData } from '@campus/kit/data';

/** The admin lists this remote pages through (`GET /api/admin/<list>?...`). */
export type AdminListRoute =
  | typeof callRoutes.adminApplications
  | typeof callRoutes.adminFeedback
  | typeof callRoutes.adminMembers
  | typeof callRoutes.adminReports
  | typeof callRoutes.adminAppeals
  | typeof callRoutes.auditLog
  | typeof callRoutes.adminMail;

type AdminListKey<R extends AdminListRoute> = CallKey<R, readonly [string]>;

/**
 * One page of an admin list, as one SWR key: the whole path with its query string, which the
 * kit's default fetcher GETs as it is. Empty parameters are left out.
 */
export function adminListKey<R extends AdminListRoute>(
  route: R,
  query: CallQuery<R>,
): AdminListKey<R> {
  const present = Object.fromEntries(
    Object.entries(query).filter(([, value]) => value !== undefined && value !== ''),
  );
  const target = callTarget(route, { query: present } as CallTargetOptions<R> as never);
  return callKey(route, [target] as const);
}

const SUMMARY_PATH = keys.adminSummary()[0];

/** Every admin list's key, and the summary's (`/api/admin/summary`). */
const isAdminKey = (key: unknown) =>
  Array.isArray(key) &&
  typeof key[0] === 'string' &&
  (key[0].startsWith('/api/admin/') || key[0] === SUMMARY_PATH);

/** A page of an admin list, fetched afresh whenever a page shows it. */
export function useAdminList<R extends AdminListRoute>(
  route: R,
  query: CallQuery<R>,
): SWRResponse<KeyData<AdminListKey<R>>, Error> {
  return useCallData(adminListKey(route, query), {
    revalidateOnMount: true,
    keepPreviousData: true,
  });
}

/**
 * After an action: every admin list and the summary counts of the shell's Admin section are read
 * again (an approved application leaves the pending list, the sidebar's count goes down).
 */
export function useRefreshAdmin() {
  const { mutate } = useSWRConfig();
  return async () => {
    await mutate(isAdminKey);
  };
}
