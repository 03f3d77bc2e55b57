/**
 * Password guessing as an attacker tries it, against the real app with the default sign-in
 * delays and its clock in the test's hands (the attacker "waits" by moving it): guessing gets
 * slow, but the right password is never refused, not to its owner's known device, not to a new
 * device for longer than a minute, and not to the other members behind the attacker's address.
 */
import { signInTooEarly, TOO_MANY_FAILED_SIGN_INS_FROM_ADDRESS } from '../src/modules/auth/routes';
import { INVALID_CREDENTIALS } from '../src/modules/auth/sign-in';
import { loadConfig } from '../src/platform/config';
import { TestClock } from './clock';
import { TEST_PASSWORD, uniqueEmail, useTestApp, type Member } from './test-app';

const t = useTestApp();
const defaults = loadConfig({});

// Every test counts from zero: its requests come from one address, at the same clock time.
beforeEach(async () => {
  await t.models.RateLimitWindow.deleteMany({});
  await t.models.SignInDelay.deleteMany({});
});

/** An app with the default sign-in delays (and `login` per address), on a stopped clock. */
function appUnderAttack(login = defaults.rateLimits.login) {
  const clock = new TestClock();
  // A minute into the next window of the per-address limit: the test's requests share it.
  const windowMs = login.windowMs;
  clock.freeze(Math.ceil(Date.now() / windowMs) * windowMs + 60_000);
  const app = t.another({ signInDelays: defaults.signInDelays, rateLimits: { login } }, clock);
  const signIn = (email: string, password: string, deviceCookie?: string) => {
    const req = app.http().post('/api/auth/login').send({ email, password });
    return deviceCookie ? req.set('Cookie', deviceCookie) : req;
  };
  return { clock, signIn };
}

/** The device cookie a successful sign-in set (`campus_device=<value>`), and its attributes. */
function deviceCookieOf(res: { headers: Record<string, unknown> }) {
  const cookies = (res.headers['set-cookie'] as string[] | undefined) ?? [];
  const set = cookies.find((c) => c.startsWith('campus_device='));
  return { cookie: set?.split(';')[0], attributes: set?.toLowerCase() ?? '' };
}

test('when an attacker makes 1,000 wrong guesses at ada, then her known device signs in at once and a new device within a minute', async () => {
  const { clock, signIn } = appUnderAttack();
  const ada = await t.createMember({ email: uniqueEmail('ada') });
  const mallory = await t.createMember({ email: uniqueEmail('mallory') });

  // Ada signed in from her laptop last week: it is a known device of her account.
  const before = await signIn(ada.email, TEST_PASSWORD).expect(200);
  const laptop = deviceCookieOf(before);
  // Mallory's own device cookie, known to her account only.
  const mallorysCookie = deviceCookieOf(await signIn(mallory.email, TEST_PASSWORD).expect(200));

  // Mallory guesses as fast as she is let, with her own device cookie: told to wait, she waits,
  // and after each guess she waits as long as the one before it took her.
  let guesses = 0;
  let toldToWait = 0;
  let lastGuessAt = clock.now().getTime();
  let gap = 0;
  while (guesses < 1000) {
    const res = await signIn(ada.email, `wrong guess ${guesses}`, mallorysCookie.cookie);
    if (res.status === 429) {
      toldToWait += 1;
      const retryAfter = Number(res.headers['retry-after']);
      // A wait of seconds, never a lockout.
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(30);
      expect(res.body).toEqual({ message: signInTooEarly(retryAfter) });
      clock.advance(retryAfter * 1000);
      continue;
    }
    expect(res.body).toEqual({ message: INVALID_CREDENTIALS });
    expect(res.status).toBe(401);
    guesses += 1;
    gap = clock.now().getTime() - lastGuessAt;
    lastGuessAt = clock.now().getTime();
    clock.advance(gap);
  }
  // The delays did their work: they grew to their cap of 30 s between guesses.
  expect(toldToWait).toBeGreaterThan(0);
  expect(gap).toBe(30_000);

  // Right after the last guess, Ada's laptop signs in at once.
  const fromLaptop = await signIn(ada.email, TEST_PASSWORD, laptop.cookie).expect(200);
  expect(fromLaptop.body.user.id).toBe(ada.id);

  // Her new phone waits out the account's delay (30 s at most), then signs in.
  const start = clock.now().getTime();
  let fromPhone = await signIn(ada.email, TEST_PASSWORD);
  while (fromPhone.status === 429) {
    clock.advance(Number(fromPhone.headers['retry-after']) * 1000);
    fromPhone = await signIn(ada.email, TEST_PASSWORD);
  }
  expect(fromPhone.status).toBe(200);
  expect(fromPhone.body.user.id).toBe(ada.id);
  expect(clock.now().getTime() - start).toBeLessThanOrEqual(60_000);

  expect(laptop.cookie).toMatch(/^campus_device=[A-Za-z0-9_-]{43}$/);
  expect(laptop.attributes).toContain('httponly');
  expect(laptop.attributes).toContain('samesite=lax');
  expect(laptop.attributes).toContain('path=/');
}, 300_000);

test('when 500 members behind one address sign in during 300 failures from it, then none of them is refused', async () => {
  // The address's flood limit is reached a third of the way through the failures.
  const { signIn } = appUnderAttack({ max: 100, windowMs: 15 * 60_000 });
  const ada = await t.createMember({ email: uniqueEmail('ada') });
  const members: Member[] = [];
  while (members.length < 500) {
    members.push(...(await Promise.all(Array.from({ length: 25 }, () => t.createMember()))));
  }

  // 300 wrong passwords (at ada and at addresses nobody has) interleaved with the members'
  // sign-ins, 10 requests in flight at a time.
  type Outcome = { member?: Member; status: number; message: string };
  const calls: (() => Promise<Outcome>)[] = [];
  for (let i = 0, failures = 0; i < 500; i += 1) {
    const member = members[i]!;
    calls.push(async () => {
      const res = await signIn(member.email, TEST_PASSWORD);
      return { member, status: res.status, message: res.body.message };
    });
    if (i % 5 < 3 && failures < 300) {
      failures += 1;
      const target = failures % 2 ? ada.email : uniqueEmail('nobody');
      calls.push(async () => {
        const res = await signIn(target, 'wrong password');
        return { status: res.status, message: res.body.message };
      });
    }
  }
  const outcomes: Outcome[] = [];
  for (let i = 0; i < calls.length; i += 10) {
    outcomes.push(...(await Promise.all(calls.slice(i, i + 10).map((call) => call()))));
  }

  const signIns = outcomes.filter((o) => o.member);
  const failures = outcomes.filter((o) => !o.member);
  expect(signIns).toHaveLength(500);
  expect(failures).toHaveLength(300);
  expect(signIns.filter((o) => o.status !== 200)).toEqual([]);
  // The flood was noticed: past the address's limit a wrong password gets 429, not 401 (ada's
  // account, guessed at too early, answered 429 without looking at the password).
  expect(failures.filter((o) => o.status === 401)).toHaveLength(100);
  const flood = failures.filter((o) => o.message === TOO_MANY_FAILED_SIGN_INS_FROM_ADDRESS);
  expect(flood.length).toBeGreaterThan(0);
  expect(failures.every((o) => o.status === 401 || o.status === 429)).toBe(true);
}, 300_000);

test('when an address nobody has is guessed at, then it answers like a known account, delays included', async () => {
  const { clock, signIn } = appUnderAttack();
  const ada = await t.createMember({ email: uniqueEmail('ada') });
  const nobody = uniqueEmail('nobody');
  const answers = async (email: string) => {
    const seen: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const res = await signIn(email, 'wrong password');
      seen.push(`${res.status} ${res.headers['retry-after'] ?? '-'} ${res.body.message}`);
      if (i % 3 === 2) clock.advance(2_000);
    }
    return seen;
  };
  const forAda = await answers(ada.email);
  clock.advance(24 * 60 * 60_000); // both start from nothing
  const forNobody = await answers(nobody);
  expect(forNobody).toEqual(forAda);
  expect(forAda.filter((a) => a.startsWith('429')).length).toBeGreaterThan(0);
});

test('when a burst of wrong guesses arrives at once, then no more of them are looked at than the free ones', async () => {
  const { signIn } = appUnderAttack();
  const ada = await t.createMember({ email: uniqueEmail('ada') });
  const statuses = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      signIn(ada.email, `wrong guess ${i}`).then((r) => r.status),
    ),
  );
  // The free failures are looked at; the last of them set the first delay, which the rest hit.
  const free = defaults.signInDelays.freeFailures;
  expect(statuses.filter((s) => s === 401)).toHaveLength(free);
  expect(statuses.filter((s) => s === 429)).toHaveLength(30 - free);
});

test("when a known device guesses wrong, then it slows itself only: neither the account's new devices nor its other known devices", async () => {
  const { signIn } = appUnderAttack();
  const ada = await t.createMember({ email: uniqueEmail('ada') });
  const laptop = deviceCookieOf(await signIn(ada.email, TEST_PASSWORD).expect(200)).cookie;
  const tablet = deviceCookieOf(await signIn(ada.email, TEST_PASSWORD).expect(200)).cookie;
  expect(tablet).not.toBe(laptop); // the second sign-in came without a cookie: another device
  let status = 401;
  while (status === 401) status = (await signIn(ada.email, 'wrong password', laptop)).status;
  expect(status).toBe(429);
  await signIn(ada.email, TEST_PASSWORD, tablet).expect(200);
  await signIn(ada.email, TEST_PASSWORD).expect(200);
  await signIn(ada.email, TEST_PASSWORD, laptop).expect(429);
});
