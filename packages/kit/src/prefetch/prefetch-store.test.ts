import { clearStoredAuth, storeAuth } from '@campus/kit/api';
import {
  PREFETCH_MAX_AGE_MS,
  PREFETCH_SLOT,
  forgetPrefetched,
  hasPrefetched,
  prefetchKey,
  arrivedPrefetch,
  prefetchSlot,
  takePrefetched,
  whenPrefetchSettled,
  withPrefetch,
  type PrefetchEntry,
} from '@campus/kit/prefetch';

const ada = { id: 21, name: 'Ada', email: 'ada@campus.edu', avatarUrl: null };

/** Leaves an early request in the slot, as the shell's entry script does. */
function leave(path: string, entry: Partial<PrefetchEntry> & Pick<PrefetchEntry, 'response'>) {
  const full: PrefetchEntry = { userId: 21, startedAt: Date.now(), ...entry };
  full.response.catch(() => undefined);
  prefetchSlot().set(prefetchKey(path), full);
  return full;
}

/** A promise the test settles when it wants. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

beforeEach(() => {
  forgetPrefetched();
  storeAuth({ user: ada });
});

afterAll(() => clearStoredAuth());

describe('prefetchKey', () => {
  it('leaves out the cache-busting _ and puts the parameters in one order', () => {
    expect(prefetchKey('/api/posts?userId=21&limit=20&offset=0&_=1700000000000')).toBe(
      '/api/posts?limit=20&offset=0&userId=21',
    );
    expect(prefetchKey('/api/posts?offset=0&limit=20&userId=21&_=5')).toBe(
      prefetchKey('/api/posts?userId=21&limit=20&offset=0&_=9'),
    );
    expect(prefetchKey('/api/auth/me')).toBe('/api/auth/me');
    expect(prefetchKey('/api/items?_=3')).toBe('/api/items');
    // other parameters still tell requests apart
    expect(prefetchKey('/api/posts?tab=following&limit=20')).not.toBe(
      prefetchKey('/api/posts?tab=jd&limit=20'),
    );
  });

  it('is the global slot the shell fills from its entry script', () => {
    expect(PREFETCH_SLOT).toBe(Symbol.for('campus.prefetch'));
    const slot = prefetchSlot();
    expect((globalThis as Record<symbol, unknown>)[PREFETCH_SLOT]).toBe(slot);
  });
});

describe('takePrefetched', () => {
  it('hands an answer out once, for the member it was asked for', async () => {
    leave('/api/users/7', { response: Promise.resolve({ id: 7 }) });
    expect(hasPrefetched('/api/users/7')).toBe(true);
    expect(takePrefetched('/api/users/7', 22)).toBeNull(); // another login's: never
    // and a refused take is final: the entry is not handed out later either
    expect(takePrefetched('/api/users/7', 21)).toBeNull();

    leave('/api/users/8', { response: Promise.resolve({ id: 8 }) });
    await expect(takePrefetched('/api/users/8', 21)).resolves.toEqual({ id: 8 });
    expect(hasPrefetched('/api/users/8')).toBe(false);
    expect(takePrefetched('/api/users/8', 21)).toBeNull();
  });

  it('does not hand out an answer whose request started too long ago', () => {
    const startedAt = 1_000_000;
    leave('/api/users/7', { startedAt, response: Promise.resolve({ id: 7 }) });
    expect(takePrefetched('/api/users/7', 21, startedAt + PREFETCH_MAX_AGE_MS)).toBeNull();
    leave('/api/users/7', { startedAt, response: Promise.resolve({ id: 7 }) });
    expect(takePrefetched('/api/users/7', 21, startedAt + PREFETCH_MAX_AGE_MS - 1)).not.toBeNull();
  });

  it('matches a path asked with its own timestamp', async () => {
    leave('/api/posts?userId=21&limit=20&offset=0&_=1', { response: Promise.resolve([]) });
    await expect(takePrefetched('/api/posts?userId=21&limit=20&offset=0&_=2', 21)).resolves.toEqual(
      [],
    );
  });

  it('finds nothing when nothing was left (a remote running alone)', () => {
    delete (globalThis as Record<symbol, unknown>)[PREFETCH_SLOT];
    expect(takePrefetched('/api/users/7', 21)).toBeNull();
    expect(hasPrefetched('/api/users/7')).toBe(false);
    forgetPrefetched(); // no slot: nothing to do
  });
});

describe('arrivedPrefetch', () => {
  it('reads an answer that has arrived, for its member, without taking it', async () => {
    const early = deferred<string[]>();
    const entry = leave('/api/posts?userId=21', { response: early.promise });
    // not arrived yet: nothing, and the entry stays for the fetcher
    expect(arrivedPrefetch('/api/posts?userId=21')).toBeNull();
    early.resolve(['first']);
    entry.answer = { value: ['first'] };
    expect(arrivedPrefetch('/api/posts?userId=21&_=5', 22)).toBeNull();
    // read again (a render done again) until it is taken
    expect(arrivedPrefetch('/api/posts?userId=21&_=5')).toEqual({ value: ['first'] });
    expect(arrivedPrefetch('/api/posts?userId=21')).toEqual({ value: ['first'] });
    await expect(takePrefetched('/api/posts?userId=21', 21)).resolves.toEqual(['first']);
    expect(arrivedPrefetch('/api/posts?userId=21')).toBeNull();
  });

  it('does not read an answer whose request started too long ago', () => {
    const entry = leave('/api/users/7', {
      response: Promise.resolve({ id: 7 }),
      startedAt: Date.now() - PREFETCH_MAX_AGE_MS,
    });
    entry.answer = { value: { id: 7 } };
    expect(arrivedPrefetch('/api/users/7')).toBeNull();
  });
});

describe('withPrefetch', () => {
  it('takes a pending early request instead of asking again', async () => {
    const early = deferred<unknown>();
    leave('/api/notifications?grouped=true', { response: early.promise });
    const load = jest.fn(async () => ({ groups: ['own request'] }));
    const read = withPrefetch('/api/notifications?grouped=true', load);
    early.resolve({ groups: ['early'] });
    await expect(read).resolves.toEqual({ groups: ['early'] });
    expect(load).not.toHaveBeenCalled();
    // a second read (a refresh) asks the API itself
    await expect(withPrefetch('/api/notifications?grouped=true', load)).resolves.toEqual({
      groups: ['own request'],
    });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('asks itself when the early request failed, so the failure is handled as usual', async () => {
    leave('/api/auth/me', { response: Promise.reject(new Error('401: Unauthorized')) });
    const load = jest.fn(async () => 'answer of its own');
    await expect(withPrefetch('/api/auth/me', load)).resolves.toBe('answer of its own');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('asks itself after a sign-out or a sign-in as someone else', async () => {
    leave('/api/users/7', { response: Promise.resolve({ id: 7, name: 'for member 21' }) });
    storeAuth({ user: { ...ada, id: 22 } });
    const load = jest.fn(async () => ({ id: 7, name: 'for member 22' }));
    await expect(withPrefetch('/api/users/7', load)).resolves.toEqual({
      id: 7,
      name: 'for member 22',
    });
    clearStoredAuth();
    leave('/api/users/8', { response: Promise.resolve({ id: 8 }) });
    await withPrefetch('/api/users/8', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('asks itself after the member left the landing route (forgetPrefetched)', async () => {
    leave('/api/users/7', { response: Promise.resolve({ id: 7, stale: true }) });
    forgetPrefetched();
    const load = jest.fn(async () => ({ id: 7 }));
    await expect(withPrefetch('/api/users/7', load)).resolves.toEqual({ id: 7 });
  });
});

describe('whenPrefetchSettled', () => {
  it('waits for every early request, taken or not, answered or failed', async () => {
    const first = deferred<unknown>();
    const second = deferred<unknown>();
    leave('/api/auth/me', { response: first.promise });
    leave('/api/users/7', { response: second.promise });
    expect(takePrefetched('/api/auth/me', 21)).not.toBeNull();
    let settled = false;
    const waiting = whenPrefetchSettled().then(() => (settled = true));
    first.resolve({});
    await Promise.resolve();
    await Promise.resolve();
    expect(settled).toBe(false);
    second.reject(new Error('503: down'));
    await waiting;
    expect(settled).toBe(true);
  });

  it('resolves at once when there was no early request', async () => {
    await expect(whenPrefetchSettled()).resolves.toBeUndefined();
  });
});
