import { randomBytes } from 'node:crypto';
import {
  ACCESS_COOKIE,
  ACCOUNT_SUSPENDED_MESSAGE,
  CSRF_REFUSED_MESSAGE,
  REFRESH_COOKIE,
  SESSION_KEY_RETIRED_MESSAGE,
  SESSION_REUSED_MESSAGE,
  SESSION_REVOKED_MESSAGE,
  SESSION_SIGNED_OUT_MESSAGE,
  sessionListSchema,
} from '@campus/contracts';
import type { Response } from 'supertest';
import { TestClock } from '../../../test/clock';
import { TEST_JWT_SECRET, TEST_PASSWORD, useTestApp } from '../../../test/test-app';
import { REFRESH_GRACE_MS } from './browser-sessions';

const t = useTestApp();

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
/** The key a rotation brings in (made at run time: a committed one would be refused in production). */
const NEW_SECRET = randomBytes(32).toString('hex');

type Http = ReturnType<typeof t.http>;

interface SetCookie {
  value: string;
  attributes: string[];
}

/** The cookies a response sets, by name, with their attributes (lower case). */
function setCookies(res: Response): Record<string, SetCookie> {
  const header = res.headers['set-cookie'] as unknown as string[] | undefined;
  const cookies: Record<string, SetCookie> = {};
  for (const line of header ?? []) {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim());
    const eq = pair!.indexOf('=');
    cookies[pair!.slice(0, eq)] = {
      value: pair!.slice(eq + 1),
      attributes: attributes.map((a) => a.toLowerCase()),
    };
  }
  return cookies;
}

/** A browser of one member: its cookie jar, and requests made as the app's pages make them. */
class Browser {
  access = '';
  refresh = '';
  constructor(
    readonly http: () => Http,
    readonly userAgent = FIREFOX,
    readonly origin = 'http://localhost:3000',
  ) {}

  keep(res: Response): Response {
    const set = setCookies(res);
    if (set[ACCESS_COOKIE]) this.access = set[ACCESS_COOKIE].value;
    if (set[REFRESH_COOKIE]) this.refresh = set[REFRESH_COOKIE].value;
    return res;
  }

  cookieHeader(path: string): string {
    const jar = [`${ACCESS_COOKIE}=${this.access}`];
    // The refresh cookie's path is /api/auth: the browser sends it there only.
    if (path.startsWith('/api/auth')) jar.push(`${REFRESH_COOKIE}=${this.refresh}`);
    return jar.filter((c) => !c.endsWith('=')).join('; ');
  }

  async login(email: string): Promise<{ user: { id: number }; token: string }> {
    const res = this.keep(
      await this.http()
        .post('/api/auth/login')
        .set('User-Agent', this.userAgent)
        .send({ email, password: TEST_PASSWORD }),
    );
    expect(res.status).toBe(200);
    return res.body;
  }

  async get(path: string): Promise<Response> {
    return this.keep(
      await this.http()
        .get(path)
        .set('User-Agent', this.userAgent)
        .set('Cookie', this.cookieHeader(path)),
    );
  }

  async send(method: 'post' | 'put' | 'delete', path: string, body?: object): Promise<Response> {
    const client = this.http();
    const req = client[method](path)
      .set('User-Agent', this.userAgent)
      .set('Origin', this.origin)
      .set('X-Requested-With', 'campus')
      .set('Cookie', this.cookieHeader(path));
    return this.keep(await (body ? req.send(body) : req));
  }

  refreshSession(): Promise<Response> {
    return this.send('post', '/api/auth/refresh');
  }
}

describe('sign-in', () => {
  test('when a member signs in, then the answer is still { user, token } (with firstSignIn on the first, issue 41) and it sets HttpOnly, SameSite=Lax cookies under /api', async () => {
    const ada = await t.createMember();
    const res = await t
      .http()
      .post('/api/auth/login')
      .send({ email: ada.email, password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: expect.objectContaining({ id: ada.id }),
      token: expect.any(String),
      firstSignIn: true,
    });
    const cookies = setCookies(res);
    expect(cookies[ACCESS_COOKIE]!.attributes).toEqual(
      expect.arrayContaining(['path=/api', 'httponly', 'samesite=lax']),
    );
    expect(cookies[REFRESH_COOKIE]!.attributes).toEqual(
      expect.arrayContaining(['path=/api/auth', 'httponly', 'samesite=lax']),
    );
    // Outside production the cookies work over plain http (localhost).
    expect(cookies[ACCESS_COOKIE]!.attributes).not.toContain('secure');
    // Neither cookie holds the bearer token of the answer.
    expect(Object.values(cookies).map((c) => c.value)).not.toContain(res.body.token);
    // The bearer token still works on its own (tools, tests, other clients).
    const me = await t.http().get('/api/auth/me').set('Authorization', `Bearer ${res.body.token}`);
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(ada.id);
  });

  test('when the API runs in production, then the session cookies are Secure', async () => {
    const ada = await t.createMember();
    const res = await t
      .withConfig({ env: 'production' })
      .post('/api/auth/login')
      .send({ email: ada.email, password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    for (const cookie of Object.values(setCookies(res))) {
      expect(cookie.attributes).toContain('secure');
    }
  });

  test('when a request carries only the access cookie, then it is authenticated by it', async () => {
    const ada = await t.createMember();
    const browser = new Browser(t.http);
    await browser.login(ada.email);
    const me = await browser.get('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(ada.id);
    const without = await t.http().get('/api/auth/me');
    expect(without.status).toBe(401);
  });
});

describe('POST /api/auth/refresh', () => {
  test('when the refresh cookie is exchanged, then new cookies come and the old refresh token is replaced', async () => {
    const ada = await t.createMember();
    const browser = new Browser(t.http);
    await browser.login(ada.email);
    const { access, refresh } = browser;
    const res = await browser.refreshSession();
    expect(res.status).toBe(204);
    expect(browser.access).not.toBe(access);
    expect(browser.refresh).not.toBe(refresh);
    expect((await browser.get('/api/auth/me')).status).toBe(200);
  });

  test('when a replaced refresh token is used again, then the whole session ends and the answer says why', async () => {
    const clock = new TestClock();
    const http = t.another({}, clock).http;
    const ada = await t.createMember();
    const browser = new Browser(http);
    await browser.login(ada.email);
    const stolen = browser.refresh;
    expect((await browser.refreshSession()).status).toBe(204);
    clock.advance(REFRESH_GRACE_MS + 1);

    // The thief replays the token the member's browser has already replaced.
    const thief = new Browser(http);
    thief.refresh = stolen;
    const replay = await thief.refreshSession();
    expect(replay.status).toBe(401);
    expect(replay.body.message).toBe(SESSION_REUSED_MESSAGE);
    // The member's own, newer refresh token and access cookie are ended with it.
    const own = await browser.get('/api/auth/me');
    expect(own.status).toBe(401);
    expect(own.body.message).toBe(SESSION_REUSED_MESSAGE);
    const ownRefresh = await browser.refreshSession();
    expect(ownRefresh.status).toBe(401);
    expect(ownRefresh.body.message).toBe(SESSION_REUSED_MESSAGE);
    // The refused refresh drops the cookies.
    expect(setCookies(ownRefresh)[REFRESH_COOKIE]?.value).toBe('');
  });

  test('when two tabs refresh with the same token at once, then both get access and the session stays', async () => {
    const ada = await t.createMember();
    const tab1 = new Browser(t.http);
    await tab1.login(ada.email);
    const tab2 = new Browser(t.http);
    tab2.refresh = tab1.refresh;
    expect((await tab1.refreshSession()).status).toBe(204);
    const second = await tab2.refreshSession();
    expect(second.status).toBe(204);
    // Only a new access cookie: the browser already holds the first answer's refresh cookie.
    expect(setCookies(second)[REFRESH_COOKIE]).toBeUndefined();
    expect(setCookies(second)[ACCESS_COOKIE]?.value).toBeTruthy();
    expect((await tab1.refreshSession()).status).toBe(204);
  });

  test('when the refresh token is made up, then 401 and nothing ends', async () => {
    const ada = await t.createMember();
    const browser = new Browser(t.http);
    await browser.login(ada.email);
    const forger = new Browser(t.http);
    const [sessionId] = browser.refresh.split('.');
    forger.refresh = `${sessionId}.${'A'.repeat(43)}`;
    expect((await forger.refreshSession()).status).toBe(401);
    forger.refresh = 'garbage';
    expect((await forger.refreshSession()).status).toBe(401);
    expect((await browser.refreshSession()).status).toBe(204);
  });
});

describe('CSRF', () => {
  test('when a cookie-authenticated write comes from a foreign origin, then 403 with the reason', async () => {
    const ada = await t.createMember();
    const browser = new Browser(t.http, FIREFOX, 'https://evil.example');
    await browser.login(ada.email);
    const res = await browser.send('post', '/api/posts', { content: 'forged' });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(CSRF_REFUSED_MESSAGE);
    expect(await t.models.Post.countDocuments({ authorId: ada.id })).toBe(0);
  });

  test('when a cookie-authenticated write lacks the custom header or the Origin, then 403', async () => {
    const ada = await t.createMember();
    const browser = new Browser(t.http);
    await browser.login(ada.email);
    const noHeader = await t
      .http()
      .post('/api/posts')
      .set('Origin', 'http://localhost:3000')
      .set('Cookie', browser.cookieHeader('/api/posts'))
      .send({ content: 'no header' });
    expect(noHeader.status).toBe(403);
    expect(noHeader.body.message).toBe(CSRF_REFUSED_MESSAGE);
    const noOrigin = await t
      .http()
      .post('/api/auth/logout')
      .set('X-Requested-With', 'campus')
      .set('Cookie', browser.cookieHeader('/api/auth/logout'));
    expect(noOrigin.status).toBe(403);
    // Refused, so the session is still open.
    expect((await browser.get('/api/auth/me')).status).toBe(200);
  });

  test('when a client that keeps cookies signs in again, then sign-in is not a cookie-authenticated write and goes through', async () => {
    const ada = await t.createMember();
    const browser = new Browser(t.http);
    await browser.login(ada.email);
    const again = await t
      .http()
      .post('/api/auth/login')
      .set('Cookie', browser.cookieHeader('/api/auth/login'))
      .send({ email: ada.email, password: TEST_PASSWORD });
    expect(again.status).toBe(200);
  });

  test('when the write comes from an allowed origin with the header, or with a bearer token, then it goes through', async () => {
    const ada = await t.createMember();
    const browser = new Browser(t.http);
    const { token } = await browser.login(ada.email);
    const ours = await browser.send('post', '/api/posts', { content: 'from the app' });
    expect(ours.status).toBe(201);
    const tool = await t
      .http()
      .post('/api/posts')
      .set('Authorization', `Bearer ${token}`)
      .send({ content: 'from a tool' });
    expect(tool.status).toBe(201);
  });
});

describe('the Sessions list', () => {
  test('when a member signed in on two devices, then each is listed with its device and the current one is marked', async () => {
    const ada = await t.createMember();
    const laptop = new Browser(t.http, FIREFOX);
    const phone = new Browser(t.http, SAFARI_IPHONE);
    await laptop.login(ada.email);
    await phone.login(ada.email);
    const res = await laptop.get('/api/auth/sessions');
    expect(res.status).toBe(200);
    const sessions = sessionListSchema.parse(res.body);
    expect(sessions.map((s) => [s.device, s.current]).sort()).toEqual([
      ['Firefox on Windows', true],
      ['Safari on iOS', false],
    ]);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  test('when a member signs out another device, then that device is refused with the reason and the list loses it', async () => {
    const ada = await t.createMember();
    const laptop = new Browser(t.http, FIREFOX);
    const phone = new Browser(t.http, SAFARI_IPHONE);
    await laptop.login(ada.email);
    const { token: phoneToken } = await phone.login(ada.email);
    const phoneSession = sessionListSchema
      .parse((await laptop.get('/api/auth/sessions')).body)
      .find((s) => !s.current)!;

    const end = await laptop.send('delete', `/api/auth/sessions/${phoneSession.id}`);
    expect(end.status).toBe(204);
    for (const res of [
      await phone.get('/api/auth/me'),
      await phone.refreshSession(),
      await t.http().get('/api/auth/me').set('Authorization', `Bearer ${phoneToken}`),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.message).toBe(SESSION_SIGNED_OUT_MESSAGE);
    }
    const left = sessionListSchema.parse((await laptop.get('/api/auth/sessions')).body);
    expect(left.map((s) => s.device)).toEqual(['Firefox on Windows']);
    expect((await laptop.get('/api/auth/me')).status).toBe(200);
  });

  test("when a member names another member's session or an unknown one, then 404 and nothing ends", async () => {
    const ada = await t.createMember();
    const ben = await t.createMember();
    const adas = new Browser(t.http);
    const bens = new Browser(t.http);
    await adas.login(ada.email);
    await bens.login(ben.email);
    const bensSession = sessionListSchema.parse((await bens.get('/api/auth/sessions')).body)[0]!;
    const res = await adas.send('delete', `/api/auth/sessions/${bensSession.id}`);
    expect(res.status).toBe(404);
    expect((await bens.get('/api/auth/me')).status).toBe(200);
    const bad = await adas.send('delete', '/api/auth/sessions/not!an!id');
    expect(bad.status).toBe(404);
  });
});

describe('POST /api/auth/logout', () => {
  test('when a browser signs out, then its session ends and its cookies are cleared', async () => {
    const ada = await t.createMember();
    const browser = new Browser(t.http);
    await browser.login(ada.email);
    const { access, refresh } = browser;
    const res = await browser.send('post', '/api/auth/logout');
    expect(res.status).toBe(204);
    expect(setCookies(res)[ACCESS_COOKIE]?.value).toBe('');
    expect(setCookies(res)[REFRESH_COOKIE]?.value).toBe('');
    // Cookies copied before the sign-out open nothing.
    Object.assign(browser, { access, refresh });
    const me = await browser.get('/api/auth/me');
    expect(me.status).toBe(401);
    expect(me.body.message).toBe(SESSION_SIGNED_OUT_MESSAGE);
    expect((await browser.refreshSession()).status).toBe(401);
  });

  test('when only the refresh cookie is left (the access cookie expired), then signing out still ends the session', async () => {
    const ada = await t.createMember();
    const browser = new Browser(t.http);
    await browser.login(ada.email);
    const { refresh } = browser;
    browser.access = '';
    expect((await browser.send('post', '/api/auth/logout')).status).toBe(204);
    browser.refresh = refresh;
    const again = await browser.refreshSession();
    expect(again.status).toBe(401);
    expect(again.body.message).toBe(SESSION_SIGNED_OUT_MESSAGE);
  });
});

describe('revocation ends cookie sessions too', () => {
  test('when the member signs out of all devices, then every cookie session is refused with the reason', async () => {
    const ada = await t.createMember();
    const laptop = new Browser(t.http);
    const phone = new Browser(t.http, SAFARI_IPHONE);
    await laptop.login(ada.email);
    await phone.login(ada.email);
    const res = await laptop.send('post', '/api/auth/logout-all');
    expect(res.status).toBe(204);
    expect(setCookies(res)[ACCESS_COOKIE]?.value).toBe('');
    for (const answer of [await phone.get('/api/auth/me'), await phone.refreshSession()]) {
      expect(answer.status).toBe(401);
      expect(answer.body.message).toBe(SESSION_REVOKED_MESSAGE);
    }
  });

  test('when the member changes the password, then other devices end and this one gets a new session', async () => {
    const ada = await t.createMember();
    const laptop = new Browser(t.http);
    const phone = new Browser(t.http, SAFARI_IPHONE);
    await laptop.login(ada.email);
    await phone.login(ada.email);
    const oldRefresh = laptop.refresh;
    const res = await laptop.send('put', '/api/auth/password', {
      currentPassword: TEST_PASSWORD,
      newPassword: 'a brand new password',
    });
    expect(res.status).toBe(200);
    expect(res.body.token).toEqual(expect.any(String));
    expect(laptop.refresh).not.toBe(oldRefresh);
    expect((await laptop.get('/api/auth/me')).status).toBe(200);
    expect((await laptop.refreshSession()).status).toBe(204);
    const refused = await phone.refreshSession();
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe(SESSION_REVOKED_MESSAGE);
    const list = sessionListSchema.parse((await laptop.get('/api/auth/sessions')).body);
    expect(list).toHaveLength(1);
  });

  test('when the account is suspended, then its cookie session cannot be renewed', async () => {
    const ada = await t.createMember();
    const browser = new Browser(t.http);
    await browser.login(ada.email);
    await t.models.User.updateOne({ _id: ada.id }, { $set: { suspendedAt: new Date() } });
    t.caches.accounts.clear();
    const res = await browser.refreshSession();
    expect(res.status).toBe(401);
    expect(res.body.message).toBe(ACCOUNT_SUSPENDED_MESSAGE);
  });
});

describe('key rotation', () => {
  test('when the API restarts with a new JWT_SECRET and the old one in JWT_PREVIOUS_SECRETS, then a signed-in browser stays signed in; once the old key is removed, a session still under it ends with the reason', async () => {
    const ada = await t.createMember();
    const active = new Browser(t.http);
    const idle = new Browser(t.http);
    const { token: oldBearer } = await active.login(ada.email);
    await idle.login(ada.email);

    // Restarted with the new key signing and the old one still verifying.
    const rotated = t.another({ jwtSecret: NEW_SECRET, jwtPreviousSecrets: [TEST_JWT_SECRET] });
    const activeThere = Object.assign(new Browser(rotated.http), {
      access: active.access,
      refresh: active.refresh,
    });
    expect((await activeThere.get('/api/auth/me')).status).toBe(200);
    expect((await activeThere.refreshSession()).status).toBe(204);
    expect((await activeThere.get('/api/auth/me')).status).toBe(200);
    expect(
      (await rotated.http().get('/api/auth/me').set('Authorization', `Bearer ${oldBearer}`)).status,
    ).toBe(200);

    // The old key is removed: the session renewed under the new key goes on.
    const retired = t.another({ jwtSecret: NEW_SECRET, jwtPreviousSecrets: [] });
    const activeLater = Object.assign(new Browser(retired.http), {
      access: activeThere.access,
      refresh: activeThere.refresh,
    });
    expect((await activeLater.get('/api/auth/me')).status).toBe(200);
    expect((await activeLater.refreshSession()).status).toBe(204);

    // A session that was not renewed during the rotation, and an old bearer token, end with the reason.
    const idleLater = Object.assign(new Browser(retired.http), {
      access: idle.access,
      refresh: idle.refresh,
    });
    const me = await idleLater.get('/api/auth/me');
    expect(me.status).toBe(401);
    expect(me.body.message).toBe(SESSION_KEY_RETIRED_MESSAGE);
    const renewal = await idleLater.refreshSession();
    expect(renewal.status).toBe(401);
    expect(renewal.body.message).toBe(SESSION_KEY_RETIRED_MESSAGE);
    const bearer = await retired
      .http()
      .get('/api/auth/me')
      .set('Authorization', `Bearer ${oldBearer}`);
    expect(bearer.status).toBe(401);
    expect(bearer.body.message).toBe(SESSION_KEY_RETIRED_MESSAGE);
  });
});
