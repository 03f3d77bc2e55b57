import {
  AUTH_STORAGE_KEY,
  clearStoredAuth,
  readStoredAuth,
  resolveApiUrl,
  configureApi,
  storeAuth,
} from '@campus/kit/api';

describe('stored auth', () => {
  beforeEach(() => window.localStorage.clear());

  it('round-trips only the user fields of spec §3, never a token', () => {
    storeAuth({
      user: { id: 1, name: 'A', email: 'a@b.c', avatarUrl: null, bio: 'x' } as never,
      token: 't',
    } as never);
    expect(JSON.parse(window.localStorage.getItem(AUTH_STORAGE_KEY) ?? '')).toEqual({
      user: { id: 1, name: 'A', email: 'a@b.c', avatarUrl: null },
    });
    expect(readStoredAuth()).toEqual({
      user: { id: 1, name: 'A', email: 'a@b.c', avatarUrl: null },
    });
    clearStoredAuth();
    expect(readStoredAuth()).toBeNull();
  });

  it('removes the bearer token a login stored before the session moved into a cookie', () => {
    window.localStorage.setItem(
      AUTH_STORAGE_KEY,
      JSON.stringify({ user: { id: 2, name: 'B', email: 'b@c.d', avatarUrl: null }, token: 'old' }),
    );
    expect(readStoredAuth()?.user.id).toBe(2);
    expect(window.localStorage.getItem(AUTH_STORAGE_KEY)).not.toContain('old');
  });

  it('treats malformed storage as signed out', () => {
    window.localStorage.setItem(AUTH_STORAGE_KEY, '{not json');
    expect(readStoredAuth()).toBeNull();
    window.localStorage.setItem(
      AUTH_STORAGE_KEY,
      JSON.stringify({ user: { id: 'x' }, token: 't' }),
    );
    expect(readStoredAuth()).toBeNull();
  });
});

describe('resolveApiUrl', () => {
  it('prefixes API paths and leaves absolute URLs alone', () => {
    configureApi({ baseUrl: 'http://localhost:4000/' });
    expect(resolveApiUrl('/uploads/a.webp')).toBe('http://localhost:4000/uploads/a.webp');
    expect(resolveApiUrl('https://cdn.example/a.png')).toBe('https://cdn.example/a.png');
  });
});
