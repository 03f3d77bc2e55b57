/** Helpers of the admin operations tests (issue 18). */
import fs from 'node:fs/promises';
import path from 'node:path';
import type request from 'supertest';
import type { TestApp } from './test-app';

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  links: Record<string, string>;
}

/** Every e-mail written to the test app's outbox once the mail queue is done, oldest first. */
export async function outbox(t: Pick<TestApp, 'dataDir' | 'mailSent'>): Promise<OutboxMail[]> {
  await t.mailSent();
  const dir = path.join(t.dataDir, 'outbox');
  const files = await fs.readdir(dir).catch(() => [] as string[]);
  const mails: OutboxMail[] = [];
  for (const file of files.filter((f) => f.endsWith('.json')).sort()) {
    mails.push(JSON.parse(await fs.readFile(path.join(dir, file), 'utf8')) as OutboxMail);
  }
  return mails;
}

/** The e-mails sent to one address. */
export async function mailsTo(
  t: Pick<TestApp, 'dataDir' | 'mailSent'>,
  to: string,
): Promise<OutboxMail[]> {
  return (await outbox(t)).filter((mail) => mail.to === to);
}

/** An account application stored through the public route; answers its id. */
export async function apply(
  t: Pick<TestApp, 'http'>,
  fields: { name: string; contactInfo: string; message?: string },
): Promise<number> {
  const res = await t
    .http()
    .post('/api/account-application')
    .send({ message: 'Alumna, class of 2009', ...fields })
    .expect(201);
  return res.body.id as number;
}

/** Suspends `memberId` through `http` (an app's client) as the administrator `admin`. */
export async function suspendThrough(
  http: () => ReturnType<typeof request>,
  admin: { auth: string },
  memberId: number,
): Promise<void> {
  await http()
    .post(`/api/admin/users/${memberId}/suspend`)
    .set('Authorization', admin.auth)
    .send({ reason: 'Spam' })
    .expect(200);
}
