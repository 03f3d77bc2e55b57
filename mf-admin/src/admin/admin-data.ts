import useSWR, { useSWRConfig } from 'swr';
import type { AdminPage } from '@campus/contracts';
import { apiRequest, type ApiRequestOptions } from '@campus/kit/api';
import { keys, type ApiKey } from '@campus/kit/data';

/** The admin lists this remote pages through (`GET /api/admin/<list>?...`). */
export type AdminList = 'applications' | 'feedback' | 'users' | 'reports' | 'audit';

/**
 * One page of an admin list, as one SWR key: the whole path with its query string, which the
 * kit's default fetcher GETs as it is. Empty parameters are left out.
 */
export function adminListKey(
  list: AdminList,
  params: Record<string, string | number | undefined>,
): ApiKey {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') query.set(name, String(value));
  }
  const search = query.toString();
  return [`/api/admin/${list}${search ? `?${search}` : ''}`] as const;
}

const SUMMARY_PATH = keys.adminSummary()[0];

/** Every admin list's key, and the summary's (`/api/admin/summary`). */
const isAdminKey = (key: unknown) =>
  Array.isArray(key) &&
  typeof key[0] === 'string' &&
  (key[0].startsWith('/api/admin/') || key[0] === SUMMARY_PATH);

/** A page of an admin list, fetched afresh whenever a page shows it. */
export function useAdminList<T>(
  list: AdminList,
  params: Record<string, string | number | undefined>,
) {
  return useSWR<AdminPage<T> | null, Error>(adminListKey(list, params), {
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

/** An admin action (POST or PUT under /api/admin). */
export function adminAction<T>(path: string, options: ApiRequestOptions): Promise<T> {
  return apiRequest<T>(path, options);
}
