/**
 * Issue 18: a suspension made through one API process reaches another at once (its own database
 * connection, its account and feed caches warm for a minute): the member's token is refused and
 * their posts leave its feed, through its change stream, not by waiting for a cache to expire.
 */
import request from 'supertest';
import { ACCOUNT_SUSPENDED_MESSAGE } from '@campus/contracts';
import { createModels } from '../src/models';
import { connectDatabase } from '../src/platform/db';
import { buildTestApp, useTestApp } from './test-app';

const t = useTestApp();

/** Asks again (up to 2 s) while `settled` says the other process has not seen the change yet. */
async function eventually<T>(ask: () => Promise<T>, settled: (answer: T) => boolean): Promise<T> {
  let answer = await ask();
  for (let tries = 0; !settled(answer) && tries < 40; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    answer = await ask();
  }
  return answer;
}

test('when the admin suspends a member through one process, then another refuses their token and hides their posts', async () => {
  const { host, port, name } = t.database.connection;
  const otherProcess = await connectDatabase(`mongodb://${host}:${port}/?directConnection=true`, {
    dbName: name,
    models: createModels,
  });
  const { app, callback } = buildTestApp(otherProcess, t.dataDir, {
    authCacheMs: 60_000,
    readCacheMs: 60_000,
  });
  try {
    const admin = await t.createMember({ id: t.config.adminUserId, name: 'Admin' });
    const member = await t.createMember({ name: 'To be suspended' });
    const reader = await t.createMember({ name: 'Reader' });
    const post = await t
      .http()
      .post('/api/posts')
      .set('Authorization', member.auth)
      .send({ content: 'Seen everywhere' })
      .expect(201);
    const other = () => request(callback);
    const feedIds = async () =>
      (await other().get('/api/posts').set('Authorization', reader.auth).expect(200)).body.map(
        (p: { id: number }) => p.id,
      ) as number[];
    // Warm the other process's caches: the member's account and a feed page with the post.
    await other().get('/api/auth/me').set('Authorization', member.auth).expect(200);
    expect(await feedIds()).toContain(post.body.id);

    await t
      .http()
      .post(`/api/admin/users/${member.id}/suspend`)
      .set('Authorization', admin.auth)
      .send({ reason: 'Spam' })
      .expect(200);

    const session = await eventually(
      () => other().get('/api/auth/me').set('Authorization', member.auth),
      (res) => res.status !== 200,
    );
    expect(session.status).toBe(401);
    expect(session.body).toEqual({ message: ACCOUNT_SUSPENDED_MESSAGE });
    const feed = await eventually(feedIds, (ids) => !ids.includes(post.body.id));
    expect(feed).not.toContain(post.body.id);
  } finally {
    await app.close();
    await otherProcess.close();
  }
});
