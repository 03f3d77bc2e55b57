/**
 * A database that exercises what a backup must bring back: every BSON type a document can hold,
 * indexes with options (unique, sparse, partial, TTL, compound descending), a validator, a view
 * and GridFS files in two buckets. Deterministic except GridFS's upload dates.
 */
import {
  Binary,
  BSONRegExp,
  Code,
  Decimal128,
  Double,
  GridFSBucket,
  Int32,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
  type Db,
  type Document,
} from 'mongodb';

/** Collections of documents whose `_id` is anything, as a backup sees them. */
const any = (db: Db, name: string) => db.collection<Document & { _id: unknown }>(name);

export const AVATAR_ID = new ObjectId('5f0000000000000000000001');
export const AVATAR = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 31 + 7) & 0xff));
export const ATTACHMENT_ID = new ObjectId('5f0000000000000000000002');
export const ATTACHMENT = Buffer.from('a small attachment\n'.repeat(40));

export async function seedBackupDataset(db: Db): Promise<void> {
  await db.collection('users').createIndex({ email: 1 }, { unique: true, name: 'email_unique' });
  await any(db, 'users').insertMany([
    {
      _id: new ObjectId('5e0000000000000000000001'),
      email: 'ada@campus.edu',
      int: new Int32(7),
      long: Long.fromString('9007199254740993'),
      double: new Double(1),
      decimal: Decimal128.fromString('12.345'),
      date: new Date('2026-01-02T03:04:05.678Z'),
      bool: true,
      nothing: null,
      nested: { a: [1, 'two', { three: 3 }], empty: {} },
      binary: new Binary(Buffer.from([0, 1, 2, 250]), 0),
      uuid: new Binary(Buffer.from('0123456789abcdef0123456789abcdef', 'hex'), 4),
      regex: new BSONRegExp('^ada', 'i'),
      ts: new Timestamp({ t: 1700000000, i: 3 }),
      code: new Code('function () { return 1; }'),
      min: new MinKey(),
      max: new MaxKey(),
      text: 'naïve café – ☕',
    },
    { _id: 2, email: 'bob@campus.edu', int: new Int32(-1), double: new Double(-0.5) },
    { _id: 'three', email: 'cy@campus.edu', 'dotted.key': 1, tags: [] },
  ]);

  const sessions = any(db, 'sessions');
  await sessions.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 3600, name: 'expires' });
  await sessions.insertMany([
    { _id: 1, userId: 2, expiresAt: new Date('2100-01-01T00:00:00Z') },
    { _id: 2, userId: 3, expiresAt: new Date('2100-06-01T00:00:00Z') },
  ]);

  const posts = any(db, 'posts');
  await posts.createIndex({ authorId: 1, createdAt: -1 }, { name: 'author_recent' });
  await posts.createIndex({ tag: 1 }, { sparse: true, name: 'tag_sparse' });
  await posts.createIndex(
    { createdAt: -1 },
    { partialFilterExpression: { deletedAt: null }, name: 'live_recent' },
  );
  await posts.insertMany(
    Array.from({ length: 120 }, (_, i) => ({
      _id: i + 1,
      authorId: i % 7,
      createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
      body: `post ${i} `.repeat(1 + (i % 5)),
      ...(i % 3 === 0 ? { tag: `t${i % 4}` } : {}),
      deletedAt: i % 10 === 0 ? new Date(Date.UTC(2026, 1, 1)) : null,
    })),
  );

  await db.createCollection('validated', {
    validator: { n: { $gte: 0 } },
    validationLevel: 'moderate',
  });
  await any(db, 'validated').insertOne({ _id: 1, n: 5 });
  await db.createCollection('recent_posts', {
    viewOn: 'posts',
    pipeline: [{ $match: { deletedAt: null } }, { $sort: { createdAt: -1 } }],
  });

  await upload(
    new GridFSBucket(db, { bucketName: 'avatars', chunkSizeBytes: 1024 }),
    AVATAR_ID,
    'ada.png',
    AVATAR,
  );
  await upload(new GridFSBucket(db), ATTACHMENT_ID, 'notes.txt', ATTACHMENT);
}

export function upload(
  bucket: GridFSBucket,
  id: ObjectId,
  name: string,
  data: Buffer,
): Promise<void> {
  return new Promise((resolve, reject) => {
    bucket
      .openUploadStreamWithId(id, name, { metadata: { owner: 'ada' } })
      .on('finish', () => resolve())
      .on('error', reject)
      .end(data);
  });
}

export async function download(db: Db, bucketName: string, id: ObjectId): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of new GridFSBucket(db, { bucketName }).openDownloadStream(id))
    chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
