/**
 * Issue 18: a suspension made through one API process reaches another at once (its own database
 * connection, its account and feed caches warm for a minute): the member's token is refused and
 * their posts leave its feed, told by the outbox (`account.suspended`), not by a cache expiring.
 */
import request from 'supertest';
import { ACCOUNT_SUSPENDED_MESSAGE } from '@campus/contracts';
import { createModels } from '../src/models';
import { connectDatabase } from '../src/platform/db';
import { suspendThrough } from './admin-support';
import { buildTestApp, useTestApp } from './test-app';

const t = useTestApp();

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

    await suspendThrough(t.http, admin, member.id);

    // Once the other process has heard the suspension (its change stream on the outbox).
    await app.caughtUp();
    const session = await other().get('/api/auth/me').set('Authorization', member.auth);
    expect(session.status).toBe(401);
    expect(session.body).toEqual({ message: ACCOUNT_SUSPENDED_MESSAGE });
    expect(await feedIds()).not.toContain(post.body.id);
  } finally {
    await app.close();
    await otherProcess.close();
  }
});
