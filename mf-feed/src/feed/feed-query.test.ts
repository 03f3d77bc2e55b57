import { configureApi } from '@campus/kit/api';
import { forgetPrefetched, prefetchKey, prefetchSlot } from '@campus/kit/prefetch';
import { TEST_API_URL, mockApi, signIn } from '@campus/kit/testing';
import { fetchFeedPage } from './feed-query';

const ada = { id: 21, name: 'Ada', email: 'ada@campus.edu', avatarUrl: null };
const post = (id: number) => ({ id, content: `post ${id}` });

/** The shell's early request for `path`, answered with `body`, as its entry script leaves it. */
function leaveEarly(path: string, body: unknown) {
  const userId = JSON.parse(window.localStorage.getItem('campus.auth') ?? '{}').user.id as number;
  prefetchSlot().set(prefetchKey(path), {
    userId,
    startedAt: Date.now(),
    response: Promise.resolve(body),
  });
}

beforeEach(() => {
  forgetPrefetched();
  configureApi({ baseUrl: TEST_API_URL });
  signIn(ada);
});

describe('fetchFeedPage', () => {
  it('takes the first page the shell asked for early, once; later pages and refreshes ask', async () => {
    const fetchMock = mockApi(({ pathname }) =>
      pathname === '/api/posts' ? { status: 200, body: [post(1)] } : undefined,
    );
    leaveEarly('/api/posts?tab=following&userId=21&limit=20&offset=0&_=5', [post(9)]);
    await expect(fetchFeedPage({ tab: 'following', top: false }, 0)).resolves.toEqual([post(9)]);
    expect(fetchMock).not.toHaveBeenCalled();

    await expect(fetchFeedPage({ tab: 'following', top: false }, 0)).resolves.toEqual([post(1)]);
    await expect(fetchFeedPage({ tab: 'following', top: false }, 1)).resolves.toEqual([post(1)]);
    expect(fetchMock.mock.calls.map(([url]) => new URL(url).searchParams.get('offset'))).toEqual([
      '0',
      '20',
    ]);
  });

  it('asks itself for another tab than the one the shell guessed', async () => {
    const fetchMock = mockApi(() => ({ status: 200, body: [post(1)] }));
    leaveEarly('/api/posts?userId=21&limit=20&offset=0&_=5', [post(9)]);
    await expect(fetchFeedPage({ tab: 'jd', top: false }, 0)).resolves.toEqual([post(1)]);
    expect(new URL(fetchMock.mock.calls[0]![0]).searchParams.get('tab')).toBe('jd');
  });
});
