import { AVATAR_URL_MESSAGE } from '@campus/contracts';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import request from 'supertest';
import { start } from '@campus/embedded-mongo';
import { connectDatabase, type Database } from './db';
import { createUploadStorage, UPLOADS_BUCKET, toPublicFileUrl, toStoredFileUrl } from './storage';

const name = '0123456789abcdef0123456789abcdef.webp';

describe('upload URLs', () => {
  test('when our own upload URL is stored, then only its path is kept, and it is made absolute again on the way out', () => {
    expect(toStoredFileUrl(`http://localhost:4000/uploads/${name}`, 'http://localhost:4000')).toBe(
      `/uploads/${name}`,
    );
    expect(toPublicFileUrl(`/uploads/${name}`, 'https://api.campus.edu')).toBe(
      `https://api.campus.edu/uploads/${name}`,
    );
  });

  test('when the URL is our own upload path, then it is kept', () => {
    expect(toStoredFileUrl(`/uploads/${name}`, 'http://localhost:4000')).toBe(`/uploads/${name}`);
  });

  test('when the URL is anyone else’s, then storing it is a 400, and an old one stored before is shown as it is', () => {
    for (const url of [
      `https://cdn.example/uploads/${name}`,
      `http://localhost:4001/uploads/${name}`,
      'http://localhost:4000/uploads/../x',
      'https://x.org/a.png',
    ]) {
      expect(() => toStoredFileUrl(url, 'http://localhost:4000')).toThrow(
        expect.objectContaining({ status: 400, message: AVATAR_URL_MESSAGE }),
      );
      expect(toPublicFileUrl(url, 'http://localhost:4000')).toBe(url);
    }
  });
});

describe('createUploadStorage (GridFS)', () => {
  let server: Awaited<ReturnType<typeof start>>;
  let database: Database;

  beforeAll(async () => {
    server = await start({ port: 0 });
    database = await connectDatabase(server.uri, { dbName: 'storage_test' });
  });
  afterAll(async () => {
    await database.close();
    await server.stop();
  });

  const files = () => database.connection.db!.collection(`${UPLOADS_BUCKET}.files`);
  const chunks = () => database.connection.db!.collection(`${UPLOADS_BUCKET}.chunks`);

  test('when a file is saved, then it is there; once removed its file and chunks are gone, and paths that are not uploads are never touched', async () => {
    const storage = createUploadStorage(database.connection, 'http://api.test');
    const saved = await storage.save(Buffer.from('webp'), 'webp');
    expect(saved).toEqual({
      name: expect.stringMatching(/^[a-f0-9]{32}\.webp$/),
      path: `/uploads/${saved.name}`,
      url: `http://api.test/uploads/${saved.name}`,
    });
    expect(await storage.has(saved.path)).toBe(true);
    expect(await storage.has(`/uploads/${name}`)).toBe(false);
    const kept = await storage.save(Buffer.from('kept'), 'png');
    for (const other of [
      `/uploads/${kept.name}/..`,
      `/uploads/../${kept.name}`,
      kept.name,
      '',
      '/uploads/keep.txt',
    ]) {
      expect(await storage.has(other)).toBe(false);
      await storage.remove(other);
    }
    await storage.remove(saved.path);
    await storage.remove(saved.path); // twice: nothing left to remove is not an error
    expect(await storage.has(saved.path)).toBe(false);
    expect(await files().countDocuments({ filename: saved.name })).toBe(0);
    expect(await storage.has(kept.path)).toBe(true);
    const keptFile = await files().findOne({ filename: kept.name });
    expect(await chunks().countDocuments({ files_id: keptFile!._id })).toBe(1);
    await storage.remove(kept.path);
    expect(await chunks().countDocuments({ files_id: keptFile!._id })).toBe(0);
  });

  test('when an older version left uploads on disk, then they are copied in under their names once, and nothing else is', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'campus-legacy-uploads-'));
    try {
      const legacy = `${'a'.repeat(32)}.png`;
      await fs.writeFile(path.join(dir, legacy), 'png bytes');
      await fs.writeFile(path.join(dir, 'jwt-secret'), 'not an upload');
      const storage = createUploadStorage(database.connection, 'http://api.test');
      expect(await storage.importFrom(dir)).toBe(1);
      expect(await storage.importFrom(dir)).toBe(0); // a second start copies nothing
      expect(await storage.has(`/uploads/${legacy}`)).toBe(true);
      expect(await files().countDocuments({ filename: legacy })).toBe(1);
      expect(await files().countDocuments({ filename: 'jwt-secret' })).toBe(0);
      expect(await storage.importFrom(path.join(dir, 'missing'))).toBe(0);
      const app = new Koa();
      app.use(storage.serve());
      const res = await request(app.callback()).get(`/uploads/${legacy}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  test('when a stored file is requested, then any app on the database serves its bytes with its type, an ETag, an immutable cache and a 304 for the same ETag', async () => {
    const bytes = Buffer.alloc(600_000, 7); // several GridFS chunks
    bytes.write('RIFF', 0);
    const saved = await createUploadStorage(database.connection, 'http://a.test').save(
      bytes,
      'webp',
    );
    // Another app on another connection to the same database: what one process stores, all serve.
    const other = await connectDatabase(server.uri, { dbName: 'storage_test' });
    try {
      const app = new Koa();
      app.use(createUploadStorage(other.connection, 'http://b.test').serve());
      const http = () => request(app.callback());
      const res = await http()
        .get(saved.path)
        .buffer(true)
        .parse((r, cb) => {
          const parts: Buffer[] = [];
          r.on('data', (c: Buffer) => parts.push(c));
          r.on('end', () => cb(null, Buffer.concat(parts)));
        });
      expect(res.status).toBe(200);
      expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
      expect(res.headers).toMatchObject({
        'content-type': 'image/webp',
        'content-length': String(bytes.length),
        'cache-control': 'public, max-age=31536000, immutable',
        etag: expect.stringMatching(/^"[\w-]{43}"$/),
      });
      const again = await http().get(saved.path).set('If-None-Match', res.headers.etag!);
      expect(again.status).toBe(304);
      expect(again.headers.etag).toBe(res.headers.etag);
      expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      // As fetch() sends it (with Cache-Control: no-cache), among other tags, or weak.
      for (const ifNoneMatch of [`"x", ${res.headers.etag}`, `W/${res.headers.etag}`, '*']) {
        await http()
          .get(saved.path)
          .set('If-None-Match', ifNoneMatch)
          .set('Cache-Control', 'no-cache')
          .expect(304);
      }
      const changed = await http().get(saved.path).set('If-None-Match', '"something-else"');
      expect(changed.status).toBe(200);

      // Unknown names, other methods and other paths fall through (404 here).
      await http().get(`/uploads/${name}`).expect(404);
      await http().get('/uploads/not-a-name.webp').expect(404);
      await http().post(saved.path).expect(404);
    } finally {
      await other.close();
    }
  });
});
