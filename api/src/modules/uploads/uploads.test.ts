import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import mongoose from 'mongoose';
import sharp from 'sharp';
import { UPLOADS_BUCKET } from '../../platform/storage';
import { useTestApp } from '../../../test/test-app';

const t = useTestApp();

function solidImage(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 90 } } });
}

/** A real PNG whose header claims other dimensions (with a correct CRC), as a decompression bomb would. */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await solidImage(8, 8).png().toBuffer());
  // Signature (8) + length (4) + "IHDR" (4), then width and height.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29);
  return png;
}

/** The names in the database's upload store (GridFS `uploads.files`). */
async function uploadedFiles(): Promise<string[]> {
  const files = await t.database.connection
    .db!.collection(`${UPLOADS_BUCKET}.files`)
    .find({}, { projection: { filename: 1 } })
    .toArray();
  return files.map((f) => String(f.filename)).sort();
}

/** The stored bytes of an uploaded avatar, read from the database's upload store. */
async function storedBytes(avatarUrl: string): Promise<Buffer> {
  const bucket = new mongoose.mongo.GridFSBucket(t.database.connection.db!, {
    bucketName: UPLOADS_BUCKET,
  });
  const parts: Buffer[] = [];
  for await (const part of bucket.openDownloadStreamByName(path.basename(avatarUrl)))
    parts.push(part as Buffer);
  return Buffer.concat(parts);
}

describe('POST /api/upload/avatar', () => {
  test('when a member uploads a PNG, then it is re-encoded to WebP under a random name and served with a long cache', async () => {
    const member = await t.createMember();
    const png = await solidImage(800, 600).png().toBuffer();
    const res = await t
      .http()
      .post('/api/upload/avatar')
      .set('Authorization', member.auth)
      .attach('avatar', png, 'me.png');
    expect(res.status).toBe(201);
    expect(res.body.avatarUrl).toMatch(/^http:\/\/api\.test\/uploads\/[a-f0-9]{32}\.webp$/);

    const servedPath = new URL(res.body.avatarUrl).pathname;
    const served = await t
      .http()
      .get(servedPath)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toContain('max-age=31536000');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers.etag).toMatch(/^"[\w-]+"$/);
    await t.http().get(servedPath).set('If-None-Match', served.headers.etag!).expect(304);
    const meta = await sharp(served.body as Buffer).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 512, height: 512 });

    // The URL is accepted as the profile's avatar.
    await t
      .http()
      .put(`/api/users/${member.id}`)
      .set('Authorization', member.auth)
      .send({ name: 'With avatar', avatarUrl: res.body.avatarUrl })
      .expect(200);
  });

  test('when a JPEG carries EXIF metadata, then the stored image has none', async () => {
    const member = await t.createMember();
    const jpeg = await solidImage(64, 64)
      .jpeg()
      .withExif({ IFD0: { Copyright: 'secret-location-marker' } })
      .toBuffer();
    expect(jpeg.includes('secret-location-marker')).toBe(true);
    const res = await t
      .http()
      .post('/api/upload/avatar')
      .set('Authorization', member.auth)
      .attach('avatar', jpeg, 'photo.jpg');
    expect(res.status).toBe(201);
    const stored = await storedBytes(res.body.avatarUrl);
    expect(stored.includes('secret-location-marker')).toBe(false);
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
  });

  test('when text is named .png and sent as image/png, then 415 and nothing is stored', async () => {
    const member = await t.createMember();
    const before = await uploadedFiles();
    const res = await t
      .http()
      .post('/api/upload/avatar')
      .set('Authorization', member.auth)
      .attach('avatar', Buffer.from('<script>alert(1)</script> definitely a png'), {
        filename: 'avatar.png',
        contentType: 'image/png',
      });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ message: 'Only JPEG, PNG, WebP or GIF images are accepted' });
    expect(await uploadedFiles()).toEqual(before);
  });

  test('when an HTML page hides a PNG inside it, then 415', async () => {
    const member = await t.createMember();
    const png = await solidImage(16, 16).png().toBuffer();
    const polyglot = Buffer.concat([
      Buffer.from('<html><script>alert(document.cookie)</script><!--'),
      png,
    ]);
    const res = await t
      .http()
      .post('/api/upload/avatar')
      .set('Authorization', member.auth)
      .attach('avatar', polyglot, 'x.png');
    expect(res.status).toBe(415);
  });

  test('when a valid PNG carries a script after its end (polyglot), then only re-encoded pixels are stored', async () => {
    const member = await t.createMember();
    const png = await solidImage(16, 16).png().toBuffer();
    const polyglot = Buffer.concat([
      png,
      Buffer.from('<html><script>alert(document.cookie)</script></html>'),
    ]);
    const res = await t
      .http()
      .post('/api/upload/avatar')
      .set('Authorization', member.auth)
      .attach('avatar', polyglot, 'x.html');
    expect(res.status).toBe(201);
    const stored = await storedBytes(res.body.avatarUrl);
    expect(stored.includes('<script>')).toBe(false);
    expect(stored.subarray(0, 4).toString()).toBe('RIFF');
  });

  test('when an SVG (which can carry script) is uploaded, then 415', async () => {
    const member = await t.createMember();
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    const res = await t
      .http()
      .post('/api/upload/avatar')
      .set('Authorization', member.auth)
      .attach('avatar', svg, { filename: 'a.svg', contentType: 'image/svg+xml' });
    expect(res.status).toBe(415);
  });

  test('when an image claims huge dimensions, then 413 and nothing is stored', async () => {
    const member = await t.createMember();
    const before = await uploadedFiles();
    const bomb = await pngClaiming(60_000, 60_000);
    expect((await sharp(bomb, { limitInputPixels: false }).metadata()).width).toBe(60_000);
    const res = await t
      .http()
      .post('/api/upload/avatar')
      .set('Authorization', member.auth)
      .attach('avatar', bomb, 'bomb.png');
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'Image dimensions are too large' });
    expect(await uploadedFiles()).toEqual(before);
  });

  test('when an image exceeds the configured pixel limit, then 413', async () => {
    const member = await t.createMember();
    const client = t.withConfig({ avatarMaxPixels: 100 * 100 });
    const png = await solidImage(101, 100).png().toBuffer();
    await client
      .post('/api/upload/avatar')
      .set('Authorization', member.auth)
      .attach('avatar', png, 'a.png')
      .expect(413);
  });

  test('when the file is larger than 5 MB, then 413 and no partial file is left behind', async () => {
    const member = await t.createMember();
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 7);
    const res = await t
      .http()
      .post('/api/upload/avatar')
      .set('Authorization', member.auth)
      .attach('avatar', big, 'big.png');
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('File is too large');
    expect(await fs.readdir(path.join(t.dataDir, 'tmp'))).toEqual([]);
  });

  test('when two files are sent in the avatar field, then 400 Upload failed', async () => {
    const member = await t.createMember();
    const png = await solidImage(8, 8).png().toBuffer();
    const res = await t
      .http()
      .post('/api/upload/avatar')
      .set('Authorization', member.auth)
      .attach('avatar', png, 'a.png')
      .attach('avatar', png, 'b.png');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Upload failed/);
  });

  test('when the multipart body is malformed, then 400 Upload failed, never 5xx', async () => {
    const member = await t.createMember();
    const res = await t
      .http()
      .post('/api/upload/avatar')
      .set('Authorization', member.auth)
      .set('Content-Type', 'multipart/form-data; boundary=XYZ')
      .send(
        '--WRONG\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\n\r\ngarbage',
      );
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Upload failed/);
  });

  test('when the multipart content type has no boundary, then 400', async () => {
    const member = await t.createMember();
    const res = await t
      .http()
      .post('/api/upload/avatar')
      .set('Authorization', member.auth)
      .set('Content-Type', 'multipart/form-data')
      .send('nothing');
    expect(res.status).toBe(400);
  });

  test('when the body is JSON instead of multipart, then 415', async () => {
    const member = await t.createMember();
    const res = await t
      .http()
      .post('/api/upload/avatar')
      .set('Authorization', member.auth)
      .send({ avatar: 'https://x.org/a.png' });
    expect(res.status).toBe(415);
  });

  test('when the avatar field is missing, then 400 Upload failed', async () => {
    const member = await t.createMember();
    const png = await solidImage(8, 8).png().toBuffer();
    const res = await t
      .http()
      .post('/api/upload/avatar')
      .set('Authorization', member.auth)
      .attach('picture', png, 'a.png');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Upload failed/);
  });

  test('when nobody is signed in, then 401 and nothing is stored', async () => {
    const before = await uploadedFiles();
    const png = await solidImage(8, 8).png().toBuffer();
    await t.http().post('/api/upload/avatar').attach('avatar', png, 'a.png').expect(401);
    expect(await uploadedFiles()).toEqual(before);
  });

  test('when a member uploads, then the profile itself is not changed by the upload', async () => {
    const member = await t.createMember();
    const before = await t.storedUser(member.id);
    const png = await solidImage(8, 8).png().toBuffer();
    await t
      .http()
      .post('/api/upload/avatar')
      .set('Authorization', member.auth)
      .attach('avatar', png, 'a.png')
      .expect(201);
    expect(await t.storedUser(member.id)).toEqual(before);
  });
});

describe('GET /uploads/:name', () => {
  test.each([
    '/uploads/0123456789abcdef0123456789abcdef.webp',
    '/uploads/..%2F..%2Fpackage.json',
    '/uploads/../package.json',
    '/uploads/jwt-secret',
  ])('when %s is requested, then 404', async (url) => {
    const res = await t.http().get(url);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Not found' });
  });
});
