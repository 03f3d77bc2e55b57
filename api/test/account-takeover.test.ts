/**
 * Issue 35, "Pre-verification takeover" and "An invitation skips verification", tried the way an
 * attacker would: through the public routes of the real app, each party with its own browser
 * (its own cookie jar), the victim reading only the mail that reaches their mailbox.
 */
import { apply, mailsTo } from './admin-support';
import { uniqueEmail, useTestApp, type Member } from './test-app';

const t = useTestApp();

const ATTACKER_PASSWORD = 'the attacker chose this';
const OWNER_PASSWORD = 'the owner chose this';
const EMAIL_VERIFIED = 'Email verified successfully! You can now log in.';
const INVALID_LINK = 'This verification link is invalid or has already been used.';

let admin: Member;
beforeAll(async () => {
  admin = await t.createMember({ id: t.config.adminUserId, name: 'Admin' });
});

/** The newest link of this kind mailed to `email` (what the mailbox owner can click). */
async function mailedLink(email: string, kind: 'verification' | 'invitation'): Promise<string> {
  const link = (await mailsTo(t, email)).filter((mail) => mail.links[kind]).at(-1)?.links[kind];
  if (!link) throw new Error(`no ${kind} e-mail to ${email}`);
  return link;
}

async function mailedVerificationToken(email: string): Promise<string> {
  return (await mailedLink(email, 'verification')).split('/').at(-1)!;
}

function signIn(email: string, password: string) {
  return t.http().post('/api/auth/login').send({ email, password });
}

function registerFrom(browser: ReturnType<typeof t.browser>, email: string, password: string) {
  return browser.post('/api/auth/register').send({ name: 'Someone', email, password });
}

describe('a sign-up made by someone else than the mailbox owner', () => {
  test("when an attacker registers the victim's address and the victim opens the mailed link, then the victim chooses the password and the attacker's never signs in", async () => {
    const victim = uniqueEmail('victim');
    await registerFrom(t.browser(), victim, ATTACKER_PASSWORD).expect(201);
    const token = await mailedVerificationToken(victim);

    // The victim clicks the link on their own device: the attacker's browser cookie is not there.
    const opened = await t.http().get(`/api/auth/verify/${token}`);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ passwordRequired: true });
    expect(opened.body).not.toHaveProperty('error');
    expect((await signIn(victim, ATTACKER_PASSWORD)).status).toBe(403); // not verified yet

    const chosen = await t
      .http()
      .post(`/api/auth/verify/${token}`)
      .send({ password: OWNER_PASSWORD });
    expect(chosen.status).toBe(200);
    expect(chosen.body).toEqual({ message: EMAIL_VERIFIED });

    const attackerTry = await signIn(victim, ATTACKER_PASSWORD);
    expect(attackerTry.status).toBe(401);
    expect(attackerTry.body).not.toHaveProperty('token');
    expect((await signIn(victim, OWNER_PASSWORD)).status).toBe(200);
  });

  test('when the attacker replays the link in their own browser after the victim used it, then it is refused and the password stays the victim’s', async () => {
    const victim = uniqueEmail('victim');
    const attacker = t.browser();
    await registerFrom(attacker, victim, ATTACKER_PASSWORD).expect(201);
    const token = await mailedVerificationToken(victim);
    await t.http().post(`/api/auth/verify/${token}`).send({ password: OWNER_PASSWORD }).expect(200);

    const replayGet = await attacker.get(`/api/auth/verify/${token}`);
    expect(replayGet.status).toBe(400);
    expect(replayGet.body).toEqual({ message: INVALID_LINK, error: INVALID_LINK });
    const replayPost = await attacker
      .post(`/api/auth/verify/${token}`)
      .send({ password: ATTACKER_PASSWORD });
    expect(replayPost.status).toBe(400);
    expect(replayPost.body).toEqual({ message: INVALID_LINK, error: INVALID_LINK });
    expect((await signIn(victim, ATTACKER_PASSWORD)).status).toBe(401);
    expect((await signIn(victim, OWNER_PASSWORD)).status).toBe(200);
  });

  test("when someone re-registers the owner's pending sign-up, then the owner's verification never lets the re-registrant's password in", async () => {
    const email = uniqueEmail('owner');
    const owner = t.browser();
    await registerFrom(owner, email, OWNER_PASSWORD).expect(201);
    const ownersFirstToken = await mailedVerificationToken(email);
    await registerFrom(t.browser(), email, ATTACKER_PASSWORD).expect(201);
    const newestToken = await mailedVerificationToken(email);

    // The owner, in the very browser they registered with, clicks the mails they got.
    expect((await owner.get(`/api/auth/verify/${ownersFirstToken}`)).status).toBe(400);
    const opened = await owner.get(`/api/auth/verify/${newestToken}`);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ passwordRequired: true });
    await owner
      .post(`/api/auth/verify/${newestToken}`)
      .send({ password: OWNER_PASSWORD })
      .expect(200);

    expect((await signIn(email, ATTACKER_PASSWORD)).status).toBe(401);
    expect((await signIn(email, OWNER_PASSWORD)).status).toBe(200);
  });
});

describe('the registering browser and the link', () => {
  test('when the browser that registered opens its link, then one click verifies and the registration password signs in', async () => {
    const email = uniqueEmail('self');
    const browser = t.browser();
    const registered = await registerFrom(browser, email, OWNER_PASSWORD).expect(201);
    const cookie = String(registered.headers['set-cookie']);
    expect(cookie).toMatch(/campus_signup=[\w-]{43}/);
    expect(cookie).toMatch(/httponly/i);
    expect(cookie).toMatch(/samesite=lax/i);
    expect(cookie).toMatch(/path=\/api\/auth\/verify/i);
    expect(cookie).not.toMatch(/;\s*secure/i); // not production
    // Only a hash of the browser's secret is stored.
    const stored = await t.models.User.findOne({ email }).lean();
    expect(JSON.stringify(stored)).not.toContain(/campus_signup=([\w-]+)/.exec(cookie)![1]);

    const token = await mailedVerificationToken(email);
    const verified = await browser.get(`/api/auth/verify/${token}`);
    expect(verified.status).toBe(200);
    // Issue 41: and signs that browser in (auth.test.ts checks its session).
    expect(verified.body).toEqual({
      message: EMAIL_VERIFIED,
      user: expect.objectContaining({ email }),
      firstSignIn: true,
    });
    expect((await signIn(email, OWNER_PASSWORD)).status).toBe(200);
  });

  test('when a link is opened without the cookie, then it stays valid until a password is chosen, and then works no more', async () => {
    const email = uniqueEmail('other.device');
    await registerFrom(t.browser(), email, OWNER_PASSWORD).expect(201);
    const token = await mailedVerificationToken(email);
    for (let i = 0; i < 2; i += 1) {
      expect((await t.http().get(`/api/auth/verify/${token}`)).body).toMatchObject({
        passwordRequired: true,
      });
    }
    await t
      .http()
      .post(`/api/auth/verify/${token}`)
      .send({ password: 'first choice!' })
      .expect(200);
    const again = await t
      .http()
      .post(`/api/auth/verify/${token}`)
      .send({ password: 'second choice' });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe(INVALID_LINK);
    expect((await t.http().get(`/api/auth/verify/${token}`)).status).toBe(400);
    expect((await signIn(email, 'second choice')).status).toBe(401);
    expect((await signIn(email, OWNER_PASSWORD)).status).toBe(401);
    expect((await signIn(email, 'first choice!')).status).toBe(200);
  });

  test.each([
    [{ password: 'short' }, 'Password must be at least 8 characters'],
    [{}, 'Password is required'],
    [{ password: 'x'.repeat(129) }, 'Password must be at most 128 characters'],
    [{ password: 'long enough', extra: 1 }, 'Unrecognized key: "extra"'],
  ])(
    'when the chosen password is %j, then 400 with the registration rule and the link still works',
    async (body, message) => {
      const email = uniqueEmail('rules');
      await registerFrom(t.browser(), email, OWNER_PASSWORD).expect(201);
      const token = await mailedVerificationToken(email);
      const refused = await t.http().post(`/api/auth/verify/${token}`).send(body);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe(message);
      await t
        .http()
        .post(`/api/auth/verify/${token}`)
        .send({ password: 'long enough' })
        .expect(200);
    },
  );

  test('when the token is unknown or malformed, then choosing a password is 400 and changes nothing', async () => {
    for (const token of ['a'.repeat(43), 'short', '%24ne']) {
      const res = await t
        .http()
        .post(`/api/auth/verify/${token}`)
        .send({ password: 'long enough' });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(INVALID_LINK);
    }
  });

  test('when the API runs in production, then the sign-up cookie is Secure', async () => {
    const client = t.withConfig({ env: 'production', demoMode: false });
    const registered = await client
      .post('/api/auth/register')
      .send({ name: 'Prod', email: uniqueEmail('prod'), password: OWNER_PASSWORD })
      .expect(201);
    expect(String(registered.headers['set-cookie'])).toMatch(/;\s*secure/i);
  });
});

describe('invitations', () => {
  async function approve(contactInfo: string, name = 'Applicant') {
    const id = await apply(t, { name, contactInfo });
    const res = await t
      .http()
      .post(`/api/admin/applications/${id}/approve`)
      .set('Authorization', admin.auth)
      .expect(200);
    return res.body as { invitationUrl: string; emailed: boolean };
  }
  const tokenOf = (url: string) => new URL(url).searchParams.get('invitation')!;

  test("when an application's contact text names someone's address and the admin approves, then the link in the admin's answer does not sign in as that address before its mailbox is verified", async () => {
    const provost = uniqueEmail('provost');
    const approval = await approve(`call +1 555 0100 or ${provost}`, 'Not The Provost');
    expect(approval.emailed).toBe(true);

    const impostor = t.browser();
    const registered = await impostor.post('/api/auth/register').send({
      name: 'The Provost',
      email: provost,
      password: ATTACKER_PASSWORD,
      invitationToken: tokenOf(approval.invitationUrl),
    });
    expect(registered.status).toBe(201);
    expect(registered.body.message).toMatch(/check your inbox/i);
    expect((await signIn(provost, ATTACKER_PASSWORD)).status).toBe(403);

    // The real provost reads their mailbox: the verification link asks them for a password.
    const token = await mailedVerificationToken(provost);
    const opened = await t.http().get(`/api/auth/verify/${token}`);
    expect(opened.body).toMatchObject({ passwordRequired: true });
    await t.http().post(`/api/auth/verify/${token}`).send({ password: OWNER_PASSWORD }).expect(200);
    expect((await signIn(provost, ATTACKER_PASSWORD)).status).toBe(401);
  });

  test("when the admin's link is used, then the mailed link is a different one and no longer works", async () => {
    const email = uniqueEmail('alum', 'example.org');
    const approval = await approve(`Mail me: ${email}`);
    const mailed = await mailedLink(email, 'invitation');
    expect(mailed).not.toBe(approval.invitationUrl);
    await t
      .http()
      .post('/api/auth/register')
      .send({
        name: 'Alum',
        email: uniqueEmail('alum.personal', 'example.org'),
        password: OWNER_PASSWORD,
        invitationToken: tokenOf(approval.invitationUrl),
      })
      .expect(201);
    const late = await t
      .http()
      .post('/api/auth/register')
      .send({
        name: 'Alum',
        email,
        password: OWNER_PASSWORD,
        invitationToken: tokenOf(mailed),
      });
    expect(late.status).toBe(410);
  });

  test('when the invitee registers through the mailed link with the address it was mailed to, then the account is verified and signed in at once', async () => {
    const email = uniqueEmail('alum', 'example.org');
    await approve(`Mail me: ${email}`);
    const browser = t.browser();
    const registered = await browser
      .post('/api/auth/register')
      .send({
        name: 'Alum',
        email,
        password: OWNER_PASSWORD,
        invitationToken: tokenOf(await mailedLink(email, 'invitation')),
      })
      .expect(201);
    expect(registered.body.message).toBe('Account created successfully! You can now sign in.');
    expect(registered.body.signedIn).toBe(true);
    // Issue 41: the browser that registered is signed in, without typing the password again.
    const me = await browser.get('/api/auth/me').expect(200);
    expect(me.body.user).toMatchObject({ id: registered.body.user.id, email });
    // That sign-in was the member's first (the client's first run), so the next one is not.
    expect(registered.body.firstSignIn).toBe(true);
    const again = await signIn(email, OWNER_PASSWORD);
    expect(again.status).toBe(200);
    expect(again.body).not.toHaveProperty('firstSignIn');
  });

  test('when the mailed link is used with another address, then that address still verifies by mail, and its owner chooses the password', async () => {
    const invited = uniqueEmail('alum', 'example.org');
    await approve(`Mail me: ${invited}`);
    const other = uniqueEmail('someone.else', 'example.org');
    const registered = await t
      .http()
      .post('/api/auth/register')
      .send({
        name: 'Alum',
        email: other,
        password: ATTACKER_PASSWORD,
        invitationToken: tokenOf(await mailedLink(invited, 'invitation')),
      })
      .expect(201);
    expect(registered.body.message).toMatch(/check your inbox/i);
    expect(registered.body).not.toHaveProperty('signedIn');
    expect((await signIn(other, ATTACKER_PASSWORD)).status).toBe(403);
    const token = await mailedVerificationToken(other);
    expect((await t.http().get(`/api/auth/verify/${token}`)).body).toMatchObject({
      passwordRequired: true,
    });
  });

  test('when the invitation e-mail could not be sent, then the address found in the contact text counts for nothing', async () => {
    const email = uniqueEmail('unmailed', 'example.org');
    const id = await apply(t, { name: 'Unmailed', contactInfo: email });
    const noSmtp = t.withConfig({ smtpUrl: 'smtp://127.0.0.1:1' });
    const approval = await noSmtp
      .post(`/api/admin/applications/${id}/approve`)
      .set('Authorization', admin.auth)
      .expect(200);
    // Queued, not sent: requests never wait for SMTP (the mail queue sends it once SMTP is back).
    expect(approval.body.emailed).toBe(true);
    const registered = await t
      .http()
      .post('/api/auth/register')
      .send({
        name: 'Unmailed',
        email,
        password: ATTACKER_PASSWORD,
        invitationToken: tokenOf(approval.body.invitationUrl),
      })
      .expect(201);
    expect(registered.body.message).toMatch(/check your inbox/i);
    expect((await signIn(email, ATTACKER_PASSWORD)).status).toBe(403);
  });
});
