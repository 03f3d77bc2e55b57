import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import type request from 'supertest';
import {
  mediaUploadResponseSchema,
  postSchema,
  type MediaUploadResponse,
  type Post,
} from '@campus/contracts';
import { MEDIA_BUCKET } from '../../platform/media-store';
import { UPLOADS_BUCKET } from '../../platform/storage';
import { TestClock } from '../../../test/clock';
import { eventually } from '../../../test/eventually';
import {
  startOtherProcessApp,
  TEST_PASSWORD,
  useTestApp,
  type Member,
} from '../../../test/test-app';

const t = useTestApp();
const HOUR = 60 * 60_000;

type Client = () => ReturnType<typeof request>;

/** A picture with some detail (a gradient and shapes), `width` by `height`. */
function picture(width: number, height: number) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#2a7"/><stop offset="1" stop-color="#c36"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${width / 3}" cy="${height / 2}" r="${height / 4}" fill="#fd3"/>
  </svg>`;
  return sharp(Buffer.from(svg));
}

/** A real PNG whose header claims other dimensions (with a correct CRC), as a decompression bomb would. */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await picture(8, 8).png().toBuffer());
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29);
  return png;
}

function upload(member: Member, bytes: Buffer, filename = 'photo.jpg', client: Client = t.http) {
  return client()
    .post('/api/media')
    .set('Authorization', member.auth)
    .attach('image', bytes, filename);
}

async function uploaded(member: Member, bytes: Buffer, client: Client = t.http) {
  const res = await upload(member, bytes, 'photo.jpg', client);
  expect({ status: res.status, body: res.status === 201 ? 'ok' : res.body }).toEqual({
    status: 201,
    body: 'ok',
  });
  return mediaUploadResponseSchema.parse(res.body);
}

/** GET of a served file, its body as bytes. */
function fetchBytes(url: string, client: Client = t.http) {
  return client()
    .get(new URL(url).pathname)
    .buffer(true)
    .parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
}

/** The GridFS files of a bucket: names, and the upload each belongs to. */
async function storedFiles(bucket = MEDIA_BUCKET) {
  return t.database.connection
    .db!.collection(`${bucket}.files`)
    .find({}, { projection: { filename: 1, metadata: 1 } })
    .toArray();
}

const filesOf = async (mediaIds: string[]) =>
  (await storedFiles()).filter((f) => mediaIds.includes(String(f.metadata?.mediaId)));

function createPost(member: Member, body: Record<string, unknown>) {
  return t
    .http()
    .post('/api/posts')
    .set('Authorization', member.auth)
    .send({ content: 'With pictures', ...body });
}

describe('POST /api/media', () => {
  test('when a member uploads a photo, then it answers the variants, each served content-addressed and immutable', async () => {
    const member = await t.createMember();
    const jpeg = await picture(3000, 2000).jpeg({ quality: 90 }).toBuffer();
    const media = await uploaded(member, jpeg);

    expect(media.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // The original capped at 2,048 px, and ~1,200 and ~400 px wide variants.
    expect({ width: media.width, height: media.height }).toEqual({ width: 2048, height: 1365 });
    const widths = [...new Set(media.variants.map((v) => v.width))].sort((a, b) => a - b);
    expect(widths).toEqual([400, 1200, 2048]);
    for (const width of widths) {
      expect(media.variants.filter((v) => v.width === width).map((v) => v.type)).toContain(
        'image/webp',
      );
    }
    expect(Buffer.from(media.placeholder, 'base64').length).toBeGreaterThan(5);
    const expires = new Date(media.expiresAt).getTime() - Date.now();
    expect(expires).toBeGreaterThan(23 * HOUR);
    expect(expires).toBeLessThanOrEqual(24 * HOUR);

    for (const variant of media.variants) {
      expect(variant.url).toMatch(/^http:\/\/api\.test\/media\/[A-Za-z0-9_-]{43}\.(webp|avif)$/);
      const served = await fetchBytes(variant.url);
      expect(served.status).toBe(200);
      expect(served.headers['content-type']).toBe(variant.type);
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      const meta = await sharp(served.body as Buffer).metadata();
      expect(meta.format).toBe(variant.type === 'image/webp' ? 'webp' : 'heif');
      expect({ width: meta.width, height: meta.height }).toEqual({
        width: variant.width,
        height: variant.height,
      });
      await t
        .http()
        .get(new URL(variant.url).pathname)
        .set('If-None-Match', served.headers.etag!)
        .expect(304);
    }
  });

  test('when a JPEG carries EXIF with GPS and a rotation, then it is turned upright and the served bytes carry no metadata', async () => {
    const member = await t.createMember();
    // Stored 600×400, to be shown rotated (orientation 6: 90° clockwise), with a location.
    const jpeg = await picture(600, 400)
      .jpeg()
      .withExif({
        IFD0: { Orientation: '6', Make: 'Campus Test Camera', Copyright: 'Secret Owner' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '51/1 30/1 0/1',
          GPSLongitudeRef: 'W',
          GPSLongitude: '0/1 7/1 0/1',
        },
      })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const before = await sharp(jpeg).metadata();
    // The EXIF has a GPS directory (its tag, 0x8825, in either byte order) and the camera's words.
    const gpsTag = [Buffer.from([0x88, 0x25]), Buffer.from([0x25, 0x88])];
    expect(gpsTag.some((tag) => before.exif!.includes(tag))).toBe(true);
    expect(jpeg.includes('Campus Test Camera')).toBe(true);
    expect(before.orientation).toBe(6);

    const media = await uploaded(member, jpeg);
    expect({ width: media.width, height: media.height }).toEqual({ width: 400, height: 600 });
    for (const variant of media.variants) {
      const bytes = (await fetchBytes(variant.url)).body as Buffer;
      const meta = await sharp(bytes).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(bytes.includes('Campus Test Camera')).toBe(false);
      expect(bytes.includes('Secret Owner')).toBe(false);
    }
  });

  test('when a PNG with transparency or a GIF is uploaded, then it is accepted (a GIF keeps its first frame)', async () => {
    const member = await t.createMember();
    const png = await sharp({
      create: {
        width: 300,
        height: 200,
        channels: 4,
        background: { r: 0, g: 0, b: 255, alpha: 0.5 },
      },
    })
      .png()
      .toBuffer();
    const fromPng = await uploaded(member, png);
    expect(fromPng.variants.map((v) => v.width)).not.toContain(400); // never enlarged
    const gif = await picture(120, 90).gif().toBuffer();
    const fromGif = await uploaded(member, gif);
    expect({ width: fromGif.width, height: fromGif.height }).toEqual({ width: 120, height: 90 });
  });

  test.each([
    ['HTML named .png', Buffer.from('<!doctype html><script>alert(1)</script>'), 'a.png'],
    [
      'an SVG',
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
      ),
      'a.png',
    ],
    ['plain text', Buffer.from('definitely a picture'), 'a.jpg'],
  ])('when %s is uploaded, then 415 and nothing is stored', async (_, bytes, filename) => {
    const member = await t.createMember();
    const before = await storedFiles();
    const res = await upload(member, bytes, filename);
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ message: 'Only JPEG, PNG, WebP or GIF images are accepted' });
    expect(await storedFiles()).toEqual(before);
  });

  test('when a valid image is also an HTML page (a polyglot), then 415 and nothing is stored', async () => {
    const member = await t.createMember();
    const png = await picture(16, 16).png().toBuffer();
    const before = await storedFiles();
    for (const polyglot of [
      Buffer.concat([png, Buffer.from('<html><script>alert(document.cookie)</script></html>')]),
      Buffer.concat([Buffer.from('GIF89a'), Buffer.from('<script>alert(1)</script>')]),
    ]) {
      const res = await upload(member, polyglot, 'a.png');
      expect(res.status).toBe(415);
      expect(res.body.message).toMatch(/not only an image|Only JPEG/);
    }
    expect(await storedFiles()).toEqual(before);
  });

  test('when an image claims more than 40 megapixels, then 413 and nothing is stored', async () => {
    const member = await t.createMember();
    const before = await storedFiles();
    const res = await upload(member, await pngClaiming(8000, 6000), 'bomb.png');
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'Image dimensions are too large' });
    expect(await storedFiles()).toEqual(before);
  });

  test('when the file is larger than the byte limit, then 413 and no temporary file is left', async () => {
    const small = t.another({ media: { ...t.config.media, maxBytes: 50_000 } });
    const member = await t.createMember();
    const big = await sharp({
      create: {
        width: 800,
        height: 800,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    expect(big.length).toBeGreaterThan(50_000);
    const res = await upload(member, big, 'big.png', small.http);
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('File is too large');
    expect(await fs.readdir(path.join(t.dataDir, 'tmp'))).toEqual([]);
  });

  test('when an upload is cut off halfway, then no temporary file is left and nothing is stored', async () => {
    const member = await t.createMember();
    const server = http.createServer(t.another({}).app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const before = await storedFiles();
      const boundary = 'campus-boundary';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\n` +
          'Content-Type: image/jpeg\r\n\r\n',
      );
      const part = await picture(1000, 800).jpeg().toBuffer();
      const req = http.request({
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/api/media',
        headers: {
          Authorization: member.auth,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': String(head.length + part.length * 2),
        },
      });
      req.on('error', () => undefined);
      req.write(head);
      req.write(part.subarray(0, part.length / 2));
      // The body has reached the API's temporary directory: then the client goes away.
      const tmp = path.join(t.dataDir, 'tmp');
      const receiving = async () => (await fs.readdir(tmp).catch(() => [] as string[])).length > 0;
      expect(await eventually(receiving)).toBe(true);
      req.destroy();
      expect(await eventually(async () => !(await receiving()))).toBe(true);
      expect(await storedFiles()).toEqual(before);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('when the body is not multipart, or has no image, then 415 or 400 and never 5xx', async () => {
    const member = await t.createMember();
    await t
      .http()
      .post('/api/media')
      .set('Authorization', member.auth)
      .send({ image: 'x' })
      .expect(415);
    const res = await t
      .http()
      .post('/api/media')
      .set('Authorization', member.auth)
      .field('other', 'x');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Upload failed/);
  });

  test('when nobody is signed in, then 401', async () => {
    const png = await picture(8, 8).png().toBuffer();
    await t.http().post('/api/media').attach('image', png, 'a.png').expect(401);
  });

  test('when a member uploads more images than allowed in a minute, then 429', async () => {
    const limited = t.another({
      memberLimits: { ...t.config.memberLimits, media: { perMinute: 2, perDay: 0 } },
    });
    const member = await t.createMember();
    const png = await picture(16, 16).png().toBuffer();
    for (let i = 0; i < 2; i++) await upload(member, png, 'a.png', limited.http).expect(201);
    const res = await upload(member, png, 'a.png', limited.http);
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/^Too many image uploads: you can make at most 2/);
  });
});

describe('images on posts', () => {
  test('when a post attaches uploads with alt text, then every view of it shows them in order, quotes too', async () => {
    const author = await t.createMember();
    const reader = await t.createMember();
    const [a, b] = [
      await uploaded(author, await picture(800, 600).jpeg().toBuffer()),
      await uploaded(author, await picture(600, 800).png().toBuffer()),
    ];
    const created = await createPost(author, {
      images: [
        { id: b.id, alt: '  A portrait of the lab  ' },
        { id: a.id, alt: '' },
      ],
    });
    expect(created.status).toBe(201);
    const post = postSchema.parse(created.body);
    const expected = [
      { id: b.id, alt: 'A portrait of the lab', width: b.width, height: b.height },
      { id: a.id, alt: '', width: a.width, height: a.height },
    ];
    const summary = (p: Post) =>
      p.images?.map(({ id, alt, width, height }) => ({ id, alt, width, height }));
    expect(summary(post)).toEqual(expected);
    expect(post.images![0]!.variants).toEqual(b.variants);
    expect(post.images![0]!.placeholder).toBe(b.placeholder);

    const detail = await t.http().get(`/api/posts/${post.id}`).set('Authorization', reader.auth);
    expect(summary(detail.body)).toEqual(expected);
    const feed = await t.http().get('/api/posts').set('Authorization', reader.auth);
    expect(summary((feed.body as Post[]).find((p) => p.id === post.id)!)).toEqual(expected);
    const profile = await t.http().get(`/api/users/${author.id}`).set('Authorization', reader.auth);
    expect(summary((profile.body.posts as Post[]).find((p) => p.id === post.id)!)).toEqual(
      expected,
    );

    // A quote with an image of its own shows it, and the quoted post's.
    const own = await uploaded(reader, await picture(400, 300).jpeg().toBuffer());
    const quote = await t
      .http()
      .post(`/api/posts/${post.id}/repost`)
      .set('Authorization', reader.auth)
      .send({ comment: 'Look at this', images: [{ id: own.id, alt: 'Mine' }] });
    expect(quote.status).toBe(201);
    expect(summary(quote.body)).toEqual([
      { id: own.id, alt: 'Mine', width: own.width, height: own.height },
    ]);
    expect(summary(quote.body.originalPost)).toEqual(expected);
    const again = await t
      .http()
      .get(`/api/posts/${quote.body.id}`)
      .set('Authorization', author.auth);
    expect(summary(again.body.originalPost)).toEqual(expected);

    // Attached, the uploads no longer expire: a day later they are still served.
    await t.context.media.janitor.sweep();
    expect(await filesOf([a.id, b.id, own.id])).toHaveLength(
      a.variants.length + b.variants.length + own.variants.length,
    );
  });

  test('when a post has no images, then it answers none', async () => {
    const author = await t.createMember();
    const res = await createPost(author, {});
    expect(res.status).toBe(201);
    expect(res.body.images).toBeUndefined();
  });

  test('when the images attached are wrong, then 400 with a clear message and no post', async () => {
    const author = await t.createMember();
    const other = await t.createMember();
    const jpeg = await picture(64, 64).jpeg().toBuffer();
    const five = await Promise.all([1, 2, 3, 4, 5].map(() => uploaded(author, jpeg)));
    const theirs = await uploaded(other, jpeg);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ images: five.map((m) => ({ id: m.id, alt: '' })) }, /^A post can have at most 4 images/],
      [
        { images: [{ id: five[0]!.id, alt: 'x'.repeat(1501) }] },
        /^Alt text must be at most 1500 characters/,
      ],
      [
        {
          images: [
            { id: five[0]!.id, alt: '' },
            { id: five[0]!.id, alt: '' },
          ],
        },
        /^The same image is attached twice/,
      ],
      [{ images: [{ id: theirs.id, alt: '' }] }, /^An image cannot be attached/],
      [{ images: [{ id: 'no-such-upload', alt: '' }] }, /^An image cannot be attached/],
      [{ images: [{ id: five[0]!.id, alt: '', extra: 1 }] }, /./],
      [{ images: 'all of them' }, /./],
    ];
    for (const [body, message] of cases) {
      const res = await createPost(author, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.message).toMatch(message);
    }
    const mine = await t.http().get(`/api/users/${author.id}`).set('Authorization', author.auth);
    expect(mine.body.posts).toEqual([]);

    // Attached once, an upload cannot be attached again.
    await createPost(author, { images: [{ id: five[0]!.id }] }).expect(201);
    const twice = await createPost(author, { images: [{ id: five[0]!.id }] });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toMatch(/^An image cannot be attached/);

    // A plain repost carries no pictures: they make a quote.
    const target = await createPost(other, {});
    const plain = await t
      .http()
      .post(`/api/posts/${target.body.id}/repost`)
      .set('Authorization', author.auth)
      .send({ images: [{ id: five[1]!.id }] });
    expect(plain.status).toBe(400);
    expect(plain.body.message).toBe('Add a comment to quote a post with images');
  });

  test('when its author deletes a post, then its images are no longer served and their bytes are gone', async () => {
    const author = await t.createMember();
    const media = await uploaded(author, await picture(900, 600).jpeg().toBuffer());
    const post = await createPost(author, { images: [{ id: media.id, alt: 'Poster' }] });
    const files = await filesOf([media.id]);
    expect(files).toHaveLength(media.variants.length);
    await t
      .http()
      .delete(`/api/posts/${post.body.id}`)
      .set('Authorization', author.auth)
      .expect(200);
    expect(await eventually(async () => (await filesOf([media.id])).length === 0)).toBe(true);
    const chunks = await t.database.connection
      .db!.collection(`${MEDIA_BUCKET}.chunks`)
      .countDocuments({ files_id: { $in: files.map((f) => f._id) } });
    expect(chunks).toBe(0);
    for (const variant of media.variants) {
      await t.http().get(new URL(variant.url).pathname).expect(404);
    }
    expect(await t.models.Media.exists({ _id: media.id })).toBeNull();
  });

  test('when the administrator removes a reported post, then the queue showed its images, their bytes go and the audit log records it', async () => {
    const admin = await t.createMember({ id: t.config.adminUserId, name: 'Admin' });
    const author = await t.createMember();
    const reporter = await t.createMember();
    const media = await uploaded(author, await picture(640, 480).jpeg().toBuffer());
    const post = await createPost(author, { images: [{ id: media.id, alt: 'Flyer' }] });
    await t
      .http()
      .post('/api/reports')
      .set('Authorization', reporter.auth)
      .send({ targetType: 'post', targetId: post.body.id, reason: 'Not for here' })
      .expect(201);
    const queue = await t.http().get('/api/admin/reports').set('Authorization', admin.auth);
    const item = queue.body.items.find(
      (r: { targetId: number; targetType: string }) =>
        r.targetType === 'post' && r.targetId === post.body.id,
    );
    expect(item.target.images).toEqual(post.body.images);

    await t
      .http()
      .post(`/api/admin/reports/${item.id}/resolve`)
      .set('Authorization', admin.auth)
      .send({ action: 'remove', reason: 'Off topic' })
      .expect(200);
    expect(await eventually(async () => (await filesOf([media.id])).length === 0)).toBe(true);
    const audit = await t.http().get('/api/admin/audit').set('Authorization', admin.auth);
    const entry = audit.body.items.find((e: { action: string }) => e.action === 'report.remove');
    expect(entry.details).toMatchObject({ targetType: 'post', images: 1 });
    const after = await t
      .http()
      .get('/api/admin/reports?status=resolved')
      .set('Authorization', admin.auth);
    const resolved = after.body.items.find((r: { id: number }) => r.id === item.id);
    expect(resolved.target.removed).toBe(true);
    expect(resolved.target.images).toBeUndefined();
  });

  test('when a member deletes their account, then the bytes of all their images go, attached or not', async () => {
    const member = await t.createMember();
    const attached = await uploaded(member, await picture(300, 300).jpeg().toBuffer());
    const loose = await uploaded(member, await picture(200, 300).jpeg().toBuffer());
    await createPost(member, { images: [{ id: attached.id }] }).expect(201);
    await t
      .http()
      .delete(`/api/users/${member.id}`)
      .set('Authorization', member.auth)
      .send({ password: TEST_PASSWORD })
      .expect(204);
    expect(
      await eventually(async () => (await filesOf([attached.id, loose.id])).length === 0),
    ).toBe(true);
  });
});

describe('expiry of uploads never used', () => {
  test('when an upload is not attached within 24 hours, then its bytes go and it cannot be attached', async () => {
    const clock = new TestClock();
    const later = t.another({}, clock);
    const member = await t.createMember();
    const kept = await uploaded(member, await picture(100, 100).jpeg().toBuffer(), later.http);
    const loose = await uploaded(member, await picture(120, 100).jpeg().toBuffer(), later.http);
    await later
      .http()
      .post('/api/posts')
      .set('Authorization', member.auth)
      .send({ content: 'Kept', images: [{ id: kept.id }] })
      .expect(201);

    clock.advance(24 * HOUR - 60_000);
    await later.app.appContext.media.janitor.sweep();
    expect(await filesOf([loose.id])).toHaveLength(loose.variants.length);

    clock.advance(2 * 60_000);
    const late = await later
      .http()
      .post('/api/posts')
      .set('Authorization', member.auth)
      .send({ content: 'Too late', images: [{ id: loose.id }] });
    expect(late.status).toBe(400);
    await later.app.appContext.media.janitor.sweep();
    expect(await filesOf([loose.id])).toEqual([]);
    expect(await filesOf([kept.id])).toHaveLength(kept.variants.length);
  });

  test('when an avatar upload is never saved to a profile, then it goes after 24 hours; a saved one stays', async () => {
    const clock = new TestClock();
    const later = t.another({}, clock);
    const member = await t.createMember();
    const png = await picture(64, 64).png().toBuffer();
    const avatar = (name: string) =>
      later
        .http()
        .post('/api/upload/avatar')
        .set('Authorization', member.auth)
        .attach('avatar', png, name)
        .expect(201);
    const saved = (await avatar('saved.png')).body.avatarUrl as string;
    const unsaved = (await avatar('unsaved.png')).body.avatarUrl as string;
    await later
      .http()
      .put(`/api/users/${member.id}`)
      .set('Authorization', member.auth)
      .send({ name: 'Saved Avatar', avatarUrl: saved })
      .expect(200);
    const names = async () =>
      (await storedFiles(UPLOADS_BUCKET)).map((f) => `/uploads/${String(f.filename)}`);
    expect(await names()).toEqual(
      expect.arrayContaining([saved, unsaved].map((u) => new URL(u).pathname)),
    );

    clock.advance(24 * HOUR + 60_000);
    await later.app.appContext.media.janitor.sweep();
    const left = await names();
    expect(left).toContain(new URL(saved).pathname);
    expect(left).not.toContain(new URL(unsaved).pathname);
    // Expired, it can no longer be saved either.
    const res = await later
      .http()
      .put(`/api/users/${member.id}`)
      .set('Authorization', member.auth)
      .send({ name: 'Saved Avatar', avatarUrl: unsaved });
    expect(res.status).toBe(400);
  });
});

describe('two API processes', () => {
  test('when one process stores an upload, then the other serves it and attaches it', async () => {
    const other = await startOtherProcessApp(t);
    try {
      const member = await t.createMember();
      const media: MediaUploadResponse = await uploaded(
        member,
        await picture(500, 400).jpeg().toBuffer(),
      );
      for (const variant of media.variants) {
        const served = await fetchBytes(variant.url, other.http);
        expect(served.status).toBe(200);
        expect(served.headers['content-type']).toBe(variant.type);
      }
      const post = await other
        .http()
        .post('/api/posts')
        .set('Authorization', member.auth)
        .send({ content: 'From the other process', images: [{ id: media.id, alt: 'Both' }] });
      expect(post.status).toBe(201);
      // And an upload the other process stored is served here.
      const theirs = await uploaded(member, await picture(300, 200).png().toBuffer(), other.http);
      expect((await fetchBytes(theirs.variants[0]!.url)).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});
