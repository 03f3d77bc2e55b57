import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import {
  callPath,
  callRoutes,
  type AnyCallRoute,
  type LikeResponse,
  type PathParams,
  type Profile,
} from '@campus/contracts';
import { configureApi } from '@campus/kit/api';
import {
  DataProvider,
  callKey,
  keyToPath,
  keys,
  readCallKey,
  useCallData,
  type CallKey,
} from '@campus/kit/data';
import { mockApi } from '@campus/kit/testing';

const wrapper = ({ children }: { children: ReactNode }) => <DataProvider>{children}</DataProvider>;

beforeEach(() => configureApi({ baseUrl: 'http://api.test' }));

/** A key and the call it reads: the default fetcher GETs exactly that call's path. */
function readsCall<R extends AnyCallRoute>(
  key: CallKey<R>,
  route: R,
  params: PathParams<R['path']>,
) {
  return { key: keyToPath(key), call: callPath<string>(route, params) };
}

describe('keys', () => {
  it('keep their parts (the SWR cache entries every app shares)', () => {
    expect(keys.notifications()).toEqual(['/api/notifications']);
    expect(keys.notificationGroups(0)).toEqual(['/api/notifications', 'grouped', 0]);
    expect(keys.user(7)).toEqual(['/api/users', 7]);
    expect(keys.following(7)).toEqual(['/api/users', 7, 'following']);
    expect(keys.userSuggestions()).toEqual(['/api/users', 'suggestions']);
    expect(keys.peopleSearch('ada')).toEqual(['/api/users', 'search', 'ada']);
    expect(keys.feedPage('jd', 2)).toEqual(['/api/posts', 'feed', 'jd', 2]);
    expect(keys.adminSummary()).toEqual(['/api/admin/summary']);
  });

  it('read by the default fetcher, GET the path of the call they are typed with', () => {
    const pairs = [
      readsCall(keys.settings(), callRoutes.settings, {}),
      readsCall(keys.notifications(), callRoutes.notifications, {}),
      readsCall(keys.user(7), callRoutes.profile, { id: 7 }),
      readsCall(keys.following(7), callRoutes.following, { id: 7 }),
      readsCall(keys.followers(7), callRoutes.followers, { id: 7 }),
      readsCall(keys.userSuggestions(), callRoutes.userSuggestions, {}),
      readsCall(keys.post(3), callRoutes.post, { id: 3 }),
      readsCall(keys.analyticsOverview(), callRoutes.analyticsOverview, {}),
      readsCall(keys.analyticsUserGrowth(), callRoutes.analyticsUserGrowth, {}),
      readsCall(keys.analyticsEngagement(), callRoutes.analyticsEngagement, {}),
      readsCall(keys.analyticsActiveUsers(), callRoutes.analyticsActiveUsers, {}),
      readsCall(keys.adminSummary(), callRoutes.adminSummary, {}),
    ];
    for (const { key, call } of pairs) expect(key).toBe(call);
  });

  it('made with callKey are their parts, unchanged', () => {
    const parts = ['/api/posts/3/like'] as const;
    expect(callKey(callRoutes.likePost, parts)).toBe(parts);
  });
});

describe('useCallData', () => {
  it("reads a key with the page's default fetcher, typed by its call", async () => {
    const profile = { id: 7, name: 'Ada' };
    const fetchMock = mockApi(({ path }) =>
      path === '/api/users/7' ? { status: 200, body: profile } : undefined,
    );
    const { result } = renderHook(() => useCallData(keys.user(7)), { wrapper });
    await waitFor(() => expect(result.current.data).toEqual(profile));
    const data: Profile | null | undefined = result.current.data;
    expect(data?.name).toBe('Ada');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('takes a fetcher of its own, and stays idle without a key', async () => {
    const fetcher = jest.fn(async (): Promise<LikeResponse> => ({ liked: true, likesCount: 1 }));
    const key = callKey(callRoutes.likePost, ['/api/posts/3/like']);
    const { result } = renderHook(() => useCallData(key, { fetcher }), { wrapper });
    await waitFor(() => expect(result.current.data).toEqual({ liked: true, likesCount: 1 }));
    expect(fetcher).toHaveBeenCalledWith(key);

    const idle = jest.fn();
    renderHook(() => useCallData(null, { fetcher: idle }), { wrapper });
    expect(idle).not.toHaveBeenCalled();
  });
});

describe('readCallKey', () => {
  it('GETs the joined parts, and answers null after a 401 signs out', async () => {
    mockApi(({ path }) => (path === '/api/posts/3' ? { status: 200, body: { id: 3 } } : undefined));
    await expect(readCallKey(keys.post(3))).resolves.toEqual({ id: 3 });
    mockApi(() => ({ status: 401 }));
    await expect(readCallKey(keys.post(3))).resolves.toBeNull();
  });
});
