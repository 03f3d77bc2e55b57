import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { createLogger } from './logger';
import { startEmbeddedDatabase } from './db';

describe('startEmbeddedDatabase', () => {
  test('when started, then it runs in its own process, keeps data under the given path across restarts, and stops', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'campus-db-'));
    try {
      const first = await startEmbeddedDatabase(dir, createLogger('silent'));
      expect(first.uri).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+$/);
      const client = await mongoose.createConnection(first.uri, { dbName: 'campus' }).asPromise();
      await client.collection('probe').insertOne({ _id: 1 as never, kept: true });
      await client.close();
      await first.stop();

      const second = await startEmbeddedDatabase(dir, createLogger('silent'));
      const again = await mongoose.createConnection(second.uri, { dbName: 'campus' }).asPromise();
      expect(await again.collection('probe').findOne({})).toEqual({ _id: 1, kept: true });
      await again.close();
      await second.stop();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
