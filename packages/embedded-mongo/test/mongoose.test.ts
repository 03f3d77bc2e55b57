import mongoose, { Schema } from 'mongoose';
import { start, type RunningServer } from '../src';

let server: RunningServer;
let conn: mongoose.Connection;

beforeAll(async () => {
  server = await start({ port: 0 });
  conn = await mongoose.createConnection(`${server.uri}/mongoose_e2e`).asPromise();
  models();
});

afterAll(async () => {
  await conn.close();
  await server.stop();
});

const counterSchema = new Schema({ _id: String, seq: { type: Number, default: 0 } });
const userSchema = new Schema(
  {
    _id: Number,
    email: { type: String, required: true, unique: true, lowercase: true },
    name: String,
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);
const postSchema = new Schema({
  _id: Number,
  authorId: { type: Number, ref: 'User', index: true },
  content: String,
  createdAt: { type: Date, default: Date.now },
});

function models() {
  return {
    Counter: conn.model('Counter', counterSchema),
    User: conn.model('User', userSchema),
    Post: conn.model('Post', postSchema),
  };
}

async function nextId(name: string): Promise<number> {
  const { Counter } = models();
  const c = await Counter.findOneAndUpdate(
    { _id: name },
    { $inc: { seq: 1 } },
    { upsert: true, returnDocument: 'after' },
  );
  return c.seq;
}

describe('mongoose over TCP', () => {
  test('when a unique index is declared, then a duplicate insert fails with E11000 and keyValue', async () => {
    const { User } = models();
    await User.init();
    await User.create({ _id: await nextId('users'), email: 'Ada@campus.edu', name: 'Ada' });
    const err = await User.create({ _id: await nextId('users'), email: 'ada@campus.edu' }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 11000, keyValue: { email: 'ada@campus.edu' } });
    expect(await User.countDocuments()).toBe(1);
    const indexes = await User.collection.indexes();
    expect(indexes.map((i) => i.name)).toEqual(['_id_', 'email_1']);
  });

  test('when ids come from a counters collection, then 1,000 concurrent creates get distinct sequential ids', async () => {
    const { Post } = models();
    const ids = await Promise.all(
      Array.from({ length: 1000 }, async (_, i) => {
        const id = await nextId('posts');
        await Post.create({ _id: id, authorId: 1, content: `post ${i}` });
        return id;
      }),
    );
    expect(new Set(ids).size).toBe(1000);
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(await Post.countDocuments({ authorId: 1 })).toBe(1000);
    // 2,000 round trips through mongoose, the driver and the server in one process: about 7 s of
    // CPU, which a shared 2-core machine stretched to 74 s (Jest's default limit is 30 s).
  }, 180_000);

  test('when a cursor is longer than one batch, then iterating it returns every document once', async () => {
    const { Post } = models();
    const seen = new Set<number>();
    for await (const p of Post.find({}, { _id: 1 })
      .sort({ _id: 1 })
      .batchSize(150)
      .lean()
      .cursor()) {
      seen.add(p._id as number);
    }
    expect(seen.size).toBe(1000);
    const page = await Post.find({ authorId: 1 }).sort({ _id: -1 }).skip(20).limit(20).lean();
    expect(page.map((p) => p._id)).toEqual(Array.from({ length: 20 }, (_, i) => 980 - i));
  });

  test('when posts are populated, then the author document replaces the id', async () => {
    const { Post, User } = models();
    const user = await User.findOne({ email: 'ada@campus.edu' }).lean();
    await Post.updateMany({}, { $set: { authorId: user!._id } });
    const post = await Post.findOne().populate<{ authorId: { name: string } }>('authorId').lean();
    expect(post!.authorId.name).toBe('Ada');
  });

  test('when aggregating with $lookup and $group by day, then the results match the data', async () => {
    const { Post } = models();
    const day = (d: string) => new Date(`${d}T12:00:00Z`);
    await Post.updateMany({ _id: { $lte: 400 } }, { $set: { createdAt: day('2026-01-01') } });
    await Post.updateMany({ _id: { $gt: 400 } }, { $set: { createdAt: day('2026-01-02') } });
    const byDay = await Post.aggregate<{ _id: string; count: number }>([
      {
        $group: {
          _id: { $dateToString: { format: '%Y-%m-%d', date: '$createdAt' } },
          count: { $sum: 1 },
        },
      },
      { $sort: { _id: 1 } },
    ]);
    expect(byDay).toEqual([
      { _id: '2026-01-01', count: 400 },
      { _id: '2026-01-02', count: 600 },
    ]);
    const joined = await Post.aggregate<{ author: Array<{ name: string }> }>([
      { $match: { _id: 1 } },
      { $lookup: { from: 'users', localField: 'authorId', foreignField: '_id', as: 'author' } },
    ]);
    expect(joined[0]!.author[0]!.name).toBe('Ada');
  });

  test('when updating with $setOnInsert on an existing document, then only the update applies', async () => {
    const { Counter } = models();
    await Counter.collection.updateOne(
      { _id: 'custom' as never },
      { $setOnInsert: { seq: 100 }, $set: { touched: 1 } },
      { upsert: true },
    );
    await Counter.collection.updateOne(
      { _id: 'custom' as never },
      { $setOnInsert: { seq: 999 }, $inc: { touched: 1 } },
      { upsert: true },
    );
    expect(await Counter.collection.findOne({ _id: 'custom' as never })).toEqual({
      _id: 'custom',
      seq: 100,
      touched: 2,
    });
  });

  test('when an update tries to change _id, then it fails and the document is unchanged', async () => {
    const { Counter } = models();
    await expect(
      Counter.collection.updateOne({ _id: 'custom' as never }, { $set: { _id: 'other' } }),
    ).rejects.toMatchObject({ code: 66 });
    expect(await Counter.collection.countDocuments({ _id: 'custom' as never })).toBe(1);
  });

  test('when a projection lists fields, then _id comes first as in MongoDB', async () => {
    const { User } = models();
    const doc = await User.collection.findOne({}, { projection: { name: 1, _id: 1 } });
    expect(Object.keys(doc!)).toEqual(['_id', 'name']);
  });

  test('when comparing ObjectIds, then equality, $in and sort follow their bytes', async () => {
    const c = conn.db!.collection('oids');
    const ids = [
      new mongoose.Types.ObjectId(),
      new mongoose.Types.ObjectId(),
      new mongoose.Types.ObjectId(),
    ];
    await c.insertMany([...ids].reverse().map((_id, i) => ({ _id, i })));
    expect((await c.findOne({ _id: new mongoose.Types.ObjectId(ids[1]!.toHexString()) }))?.i).toBe(
      1,
    );
    expect(await c.countDocuments({ _id: { $in: [ids[0]!, ids[2]!] } })).toBe(2);
    const sorted = await c.find().sort({ _id: 1 }).toArray();
    expect(sorted.map((d) => d._id.toHexString())).toEqual(ids.map((i) => i.toHexString()));
  });
});
