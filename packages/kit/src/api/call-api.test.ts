import {
  callRoutes,
  calls,
  type LikeResponse,
  type NotificationGroupPage,
  type UndoRepostResponse,
} from '@campus/contracts';
import {
  ApiError,
  callApi,
  callTarget,
  configureApi,
  readCall,
  readStoredAuth,
  storeAuth,
} from '@campus/kit/api';
import { callsTo, mockApi, type ApiCall, type ApiReply } from '@campus/kit/testing';

const signedIn = {
  user: { id: 3, name: 'Ada', email: 'ada@campus.edu', avatarUrl: null },
};

/** The fake API answers every request with `reply` and keeps what was sent. */
function answer(reply: ApiReply) {
  const sent: ApiCall[] = [];
  const fetchMock = mockApi(
    (call) => {
      sent.push(call);
      return reply;
    },
    { acceptStoredLogin: false },
  );
  return { fetchMock, sent };
}

beforeEach(() => {
  window.localStorage.clear();
  configureApi({ baseUrl: 'http://api.test' });
});

describe('callTarget', () => {
  it('fills in the path parameters, URI-encoded', () => {
    expect(callTarget(callRoutes.likePost, { params: { id: 12 } })).toBe('/api/posts/12/like');
    expect(callTarget(callRoutes.invitation, { params: { token: 'a/b c?d' } })).toBe(
      '/api/invitations/a%2Fb%20c%3Fd',
    );
    expect(callTarget(callRoutes.settings)).toBe('/api/settings');
  });

  it('adds the discriminator first, then the query fields that have a value, in order', () => {
    expect(callTarget(callRoutes.notificationGroups)).toBe('/api/notifications?grouped=true');
    expect(callTarget(callRoutes.notificationGroups, { query: { before: 40, limit: 5 } })).toBe(
      '/api/notifications?grouped=true&before=40&limit=5',
    );
    expect(
      callTarget(callRoutes.feed, {
        query: { tab: 'jd', userId: undefined, limit: 20, offset: 0 },
      }),
    ).toBe('/api/posts?tab=jd&limit=20&offset=0');
    expect(callTarget(callRoutes.searchUsers, { query: { q: 'ada & co' } })).toBe(
      '/api/users?q=ada+%26+co',
    );
  });

  it('adds a cache-busting timestamp last when asked', () => {
    expect(callTarget(callRoutes.feed, { query: { limit: 20, offset: 0 }, cacheBust: 5 })).toBe(
      '/api/posts?limit=20&offset=0&_=5',
    );
    expect(callTarget(callRoutes.settings, { cacheBust: 5 })).toBe('/api/settings?_=5');
  });

  it('takes an entry of the full table as well as its route', () => {
    expect(callTarget(calls.following, { params: { id: 7 } })).toBe('/api/users/7/following');
  });
});

describe('callApi', () => {
  it("sends the call's method, path and JSON body, and answers the parsed response, typed", async () => {
    storeAuth(signedIn);
    const { fetchMock, sent } = answer({ status: 200, body: { liked: true, likesCount: 4 } });
    const liked: LikeResponse = await callApi(callRoutes.likePost, { params: { id: 12 } });
    expect(liked).toEqual({ liked: true, likesCount: 4 });
    expect(sent.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'POST /api/posts/12/like',
    ]);
    expect(fetchMock.mock.calls[0]![1]).toMatchObject({
      method: 'POST',
      credentials: 'include',
      headers: { 'X-Requested-With': 'campus' },
    });

    const posted = answer({ status: 201, body: { id: 9 } });
    await callApi(callRoutes.createPost, { body: { content: 'Hi', isJdTagged: true } });
    expect(callsTo(posted.fetchMock, '/api/posts', 'POST')).toHaveLength(1);
    expect(posted.sent[0]!.body).toEqual({ content: 'Hi', isJdTagged: true });
  });

  it('sends a body as JSON and FormData as it is', async () => {
    const { sent } = answer({ status: 201, body: { avatarUrl: '/uploads/a.webp' } });
    await callApi(callRoutes.repost, { params: { id: 5 }, body: { comment: 'Look' } });
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/api/posts/5/repost' });
    expect(sent[0]!.body).toEqual({ comment: 'Look' });
    expect(sent[0]!.init.headers).toMatchObject({ 'Content-Type': 'application/json' });

    const form = new FormData();
    form.append('avatar', new Blob(['png']), 'me.png');
    await expect(callApi(callRoutes.uploadAvatar, { body: form })).resolves.toEqual({
      avatarUrl: '/uploads/a.webp',
    });
    expect(sent[1]!.init.body).toBe(form);
    expect(sent[1]!.init.headers).not.toHaveProperty('Content-Type');
  });

  it('answers null for a 204', async () => {
    answer({ status: 204 });
    const none: null = await callApi(callRoutes.signOutEverywhere);
    expect(none).toBeNull();
  });

  it('fails with "STATUS: body" as an ApiError', async () => {
    answer({ status: 404, body: { message: 'Post not found' } });
    const error = await callApi(callRoutes.undoRepost, { params: { id: 8 } }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('404: {"message":"Post not found"}');
    expect((error as ApiError).serverMessage).toBe('Post not found');
  });

  it('signs out on a 401 that a renewed session still gets, unless asked to answer null', async () => {
    storeAuth(signedIn);
    const fetchMock = mockApi(
      ({ pathname }) =>
        pathname === '/api/auth/refresh'
          ? { status: 204 }
          : { status: 401, body: { message: 'Invalid token' } },
      { acceptStoredLogin: false },
    );
    const lookup: UndoRepostResponse | null = await callApi(callRoutes.undoRepost, {
      params: { id: 8 },
      on401: 'returnNull',
    });
    expect(lookup).toBeNull();
    expect(readStoredAuth()).toEqual(signedIn);
    await expect(callApi(callRoutes.undoRepost, { params: { id: 8 } })).rejects.toThrow('401:');
    expect(readStoredAuth()).toBeNull();
    // Each 401 was first answered by renewing the session, then asked once more.
    expect(callsTo(fetchMock, '/api/auth/refresh', 'POST')).toHaveLength(2);
    expect(callsTo(fetchMock, '/api/posts/8/repost', 'DELETE')).toHaveLength(4);
  });

  it('rejects, sending nothing, when a path parameter is missing', async () => {
    const { sent } = answer({ status: 200, body: {} });
    await expect(callApi(callRoutes.verifyEmail, { params: { token: '' } })).rejects.toThrow(
      'verifyEmail: no value for the path parameter :token',
    );
    expect(sent).toHaveLength(0);
  });
});

describe('readCall', () => {
  it('GETs the call and answers its response, typed', async () => {
    const page: NotificationGroupPage = { groups: [], nextCursor: null };
    const { sent } = answer({ status: 200, body: page });
    const read: NotificationGroupPage | null = await readCall(callRoutes.notificationGroups, {
      query: { before: 7 },
    });
    expect(read).toEqual(page);
    expect(sent[0]).toMatchObject({
      method: 'GET',
      path: '/api/notifications?grouped=true&before=7',
    });
  });

  it('answers null after signing out on a 403, and rejects other failures', async () => {
    storeAuth(signedIn);
    answer({ status: 403 });
    await expect(readCall(callRoutes.analyticsOverview)).resolves.toBeNull();
    expect(readStoredAuth()).toBeNull();
    answer({ status: 500, statusText: 'Internal Server Error' });
    await expect(readCall(callRoutes.settings)).rejects.toThrow('500: Internal Server Error');
  });
});

/** Compile-time checks: the options each call takes (never run). */
export function typeChecks() {
  // @ts-expect-error a call with path parameters needs them
  void callApi(callRoutes.likePost);
  // @ts-expect-error ids are numbers
  void callApi(callRoutes.likePost, { params: { id: 'x' as unknown as boolean } });
  // @ts-expect-error a body the call does not read
  void callApi(callRoutes.likePost, { params: { id: 1 }, body: { x: 1 } });
  // @ts-expect-error the body misses its content
  void callApi(callRoutes.createPost, { body: { isJdTagged: true } });
  // @ts-expect-error the discriminator is the client's to add
  void callTarget(callRoutes.notificationGroups, { query: { grouped: 'true' } });
  // @ts-expect-error readCall is for GET calls
  void readCall(callRoutes.likePost, { params: { id: 1 } });
  void callApi(callRoutes.toggleFollow, { params: { id: 1 } });
}
