/**
 * Text indexes and `$text` through the official driver and mongoose, against mongod 7.0's
 * results: the examples of MongoDB's manual ($text, $meta) with the documents, results and
 * scores it prints, its jstests' checks (weights, text score in aggregation), and mongod's
 * errors. Stemming is Snowball English (Porter2), stop words mongod's English list, matching
 * case- and diacritic-insensitive unless asked.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { MongoClient, MongoServerError, type Db } from 'mongodb';
import { start, type RunningServer } from '../src';

let server: RunningServer;
let client: MongoClient;
let db: Db;
let dbSeq = 0;

beforeAll(async () => {
  server = await start({ port: 0 });
  client = await MongoClient.connect(server.uri);
});
afterAll(async () => {
  await client.close();
  await server.stop();
});
beforeEach(() => {
  db = client.db(`text${++dbSeq}`);
});

async function serverError(p: Promise<unknown>): Promise<MongoServerError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof MongoServerError) return e;
    throw e;
  }
  throw new Error('expected a server error');
}

const ids = (docs: Array<{ _id: unknown }>) => docs.map((d) => d._id).sort();

/** The articles of the manual's $text examples. */
async function articles() {
  const c = db.collection<{ _id: number; subject: string; author: string; views: number }>(
    'articles',
  );
  await c.insertMany([
    { _id: 1, subject: 'coffee', author: 'xyz', views: 50 },
    { _id: 2, subject: 'Coffee Shopping', author: 'efg', views: 5 },
    { _id: 3, subject: 'Baking a cake', author: 'abc', views: 90 },
    { _id: 4, subject: 'baking', author: 'xyz', views: 100 },
    { _id: 5, subject: 'Café Con Leche', author: 'abc', views: 200 },
    { _id: 6, subject: 'Сырники', author: 'jkl', views: 80 },
    { _id: 7, subject: 'coffee and cream', author: 'efg', views: 10 },
    { _id: 8, subject: 'Cafe con Leche', author: 'xyz', views: 10 },
  ]);
  await c.createIndex({ subject: 'text' });
  return c;
}

describe('text indexes', () => {
  test('when a text index is created, then it is listed as mongod stores it', async () => {
    const c = db.collection('c');
    expect(await c.createIndex({ title: 'text', body: 'text' }, { weights: { title: 10 } })).toBe(
      'title_text_body_text',
    );
    const [, ix] = await c.listIndexes().toArray();
    expect(ix).toEqual({
      v: 2,
      key: { _fts: 'text', _ftsx: 1 },
      name: 'title_text_body_text',
      weights: { body: 1, title: 10 },
      default_language: 'english',
      language_override: 'language',
      textIndexVersion: 3,
    });
    // The same index again: nothing to do, as in mongod.
    const again = await db.command({
      createIndexes: 'c',
      indexes: [
        {
          key: { title: 'text', body: 'text' },
          name: 'title_text_body_text',
          weights: { title: 10 },
        },
      ],
    });
    expect(again.note).toBe('all indexes already exist');
  });

  test("when a second text index is asked for, then mongod's errors answer", async () => {
    const c = db.collection('c');
    await c.createIndex({ content: 'text' });
    const other = await serverError(c.createIndex({ title: 'text' }));
    expect(other.code).toBe(85);
    expect(other.message).toContain(
      'An equivalent index already exists with a different name and options',
    );
    const compound = await serverError(c.createIndex({ authorId: 1, title: 'text' }));
    expect(compound.code).toBe(67);
    expect(compound.message).toBe(
      'only one text index per collection allowed, found existing text index "content_text"',
    );
    const renamed = await serverError(c.createIndex({ content: 'text' }, { name: 'again' }));
    expect(renamed.code).toBe(85);
    expect(renamed.message).toBe('Index already exists with a different name: content_text');
  });

  test('when a text index spec is invalid or asks for what this server lacks, then it is refused', async () => {
    const c = db.collection('c');
    const cases: Array<[object, object, string]> = [
      [{ a: 'text', b: 1, c: 'text' }, {}, "'text' fields in index must all be adjacent"],
      [
        { a: 'text' },
        { weights: { a: 0 } },
        'text index weight must be in the exclusive interval (0,100000) but found: 0',
      ],
      [{ a: 'text' }, { default_language: 'klingon' }, 'default_language is not valid'],
      [
        { a: 'text' },
        { default_language: 'french' },
        'implements only the languages english and none',
      ],
      [{ a: 'text' }, { language_override: '$lang' }, 'language_override is not valid'],
      [
        { a: 'text' },
        { collation: { locale: 'en', strength: 2 } },
        "Index type 'text' does not support collation",
      ],
    ];
    for (const [key, options, message] of cases) {
      const e = await serverError(c.createIndex(key as never, options));
      expect(e.code).toBe(67);
      expect(e.message).toContain(message);
    }
    expect(await c.listIndexes().toArray()).toHaveLength(1);
  });
});

describe("$text (the manual's examples)", () => {
  test('when searching words, phrases and negations, then the documents mongod returns are returned', async () => {
    const c = await articles();
    const find = async (search: object) => ids(await c.find({ $text: search as never }).toArray());
    expect(await find({ $search: 'coffee' })).toEqual([1, 2, 7]);
    expect(await find({ $search: 'bake coffee cake' })).toEqual([1, 2, 3, 4, 7]);
    expect(await find({ $search: '"coffee shop"' })).toEqual([2]);
    expect(await find({ $search: 'coffee -shop' })).toEqual([1, 7]);
    // Spanish is one of mongod's languages this server does not implement: refused, not ignored.
    const spanish = await serverError(
      c.find({ $text: { $search: 'leche', $language: 'es' } }).toArray(),
    );
    expect(spanish.code).toBe(2);
    expect(spanish.message).toContain('unsupported language: "es"');
  });

  test('when the search differs by case or diacritics, then it matches unless asked to be sensitive', async () => {
    const c = await articles();
    const find = async (search: object) => ids(await c.find({ $text: search as never }).toArray());
    expect(await find({ $search: 'сы́рники CAFÉS' })).toEqual([5, 6, 8]);
    expect(await find({ $search: 'Coffee', $caseSensitive: true })).toEqual([2]);
    expect(await find({ $search: '"Café Con Leche"', $caseSensitive: true })).toEqual([5]);
    expect(await find({ $search: 'Coffee -shop', $caseSensitive: true })).toEqual([2]);
    expect(await find({ $search: 'CAFÉ', $diacriticSensitive: true })).toEqual([5]);
    expect(await find({ $search: 'leches -cafés', $diacriticSensitive: true })).toEqual([8]);
  });

  test("when the text score is projected and sorted by, then it is mongod's", async () => {
    const c = await articles();
    expect(
      await c
        .find({ $text: { $search: 'cake' } }, { projection: { score: { $meta: 'textScore' } } })
        .toArray(),
    ).toEqual([{ _id: 3, subject: 'Baking a cake', author: 'abc', views: 90, score: 0.75 }]);

    const t = db.collection<{ _id: number; title: string }>('cakes');
    await t.insertMany([
      { _id: 1, title: 'cakes and ale' },
      { _id: 2, title: 'more cakes' },
      { _id: 3, title: 'bread' },
      { _id: 4, title: 'some cakes' },
      { _id: 5, title: 'two cakes to go' },
      { _id: 6, title: 'pie' },
    ]);
    await t.createIndex({ title: 'text' });
    const scored = await t
      .find(
        { $text: { $search: 'cake' } },
        { projection: { _id: 1, score: { $meta: 'textScore' } } },
      )
      .sort({ score: { $meta: 'textScore' }, _id: 1 })
      .toArray();
    expect(scored).toEqual([
      { _id: 2, score: 1 },
      { _id: 4, score: 1 },
      { _id: 1, score: 0.75 },
      { _id: 5, score: 0.6666666666666666 },
    ]);
    // Grouped by score, as the manual's $meta example prints it.
    const groups = await t
      .aggregate([
        // The manual's example has only the first four documents.
        { $match: { $text: { $search: 'cake' }, _id: { $lte: 4 } } },
        { $group: { _id: { $meta: 'textScore' }, count: { $sum: 1 } } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(groups).toEqual([
      { _id: 0.75, count: 1 },
      { _id: 1, count: 2 },
    ]);
  });

  test('when fields have weights, then a word in the heavier field scores higher (jstests fts weights)', async () => {
    const t = db.collection<{ _id: number; title: string; text: string }>('w');
    await t.insertMany([
      { _id: 1, title: 'my blog post', text: 'this is a new blog i am writing. yay' },
      { _id: 2, title: 'my 2nd post', text: 'this is a new blog i am writing. yay' },
      { _id: 3, title: 'knives are Fun', text: 'this is a new blog i am writing. yay' },
    ]);
    await t.createIndex({ title: 'text', text: 'text' }, { weights: { title: 10 } });
    const blog = await t
      .find({ $text: { $search: 'blog' } }, { projection: { score: { $meta: 'textScore' } } })
      .sort({ score: { $meta: 'textScore' } })
      .toArray();
    expect(blog).toHaveLength(3);
    expect(blog[0]!._id).toBe(1);
    // 'blog' in a title of 2 terms ('my' is a stop word) with weight 10, and in a text of 4
    // ('this is a ... i am' are stop words).
    expect((blog[0] as { score?: number }).score).toBeCloseTo(
      10 * (0.5 / 2 + 0.5) + (0.5 / 4 + 0.5),
      10,
    );
    const write = await t
      .find({ $text: { $search: 'write' } }, { projection: { score: { $meta: 'textScore' } } })
      .toArray();
    expect(write).toHaveLength(3);
    const scores = write.map((d) => (d as { score?: number }).score);
    expect(new Set(scores).size).toBe(1);
  });

  test('when words are inflected or stop words, then English stemming and stop words apply', async () => {
    const c = db.collection('s');
    await c.insertMany([
      { _id: 1, t: 'She was running to the stations' },
      { _id: 2, t: 'The Who' },
      { _id: 3, t: "He doesn't generalize: generously generous" },
    ] as never[]);
    await c.createIndex({ t: 'text' });
    const find = async (s: string) => ids(await c.find({ $text: { $search: s } }).toArray());
    expect(await find('runs')).toEqual([1]);
    expect(await find('station')).toEqual([1]);
    expect(await find('who the')).toEqual([]); // stop words only: nothing to look up
    expect(await find('generous')).toEqual([3]); // Porter2's exception for gener-
    expect(await find("doesn't")).toEqual([]);
  });

  test('when the index or a document says language none, then words are neither stemmed nor stop words', async () => {
    const c = db.collection('n');
    await c.createIndex({ t: 'text' }, { default_language: 'none' });
    await c.insertMany([
      { _id: 1, t: 'running the show' },
      { _id: 2, t: 'running the show', language: 'english' },
    ] as never[]);
    const find = async (s: object) => ids(await c.find({ $text: s as never }).toArray());
    expect(await find({ $search: 'running' })).toEqual([1]);
    expect(await find({ $search: 'the' })).toEqual([1]);
    expect(await find({ $search: 'running', $language: 'english' })).toEqual([2]);
    const french = await serverError(
      c.insertOne({ _id: 3, t: 'bonjour', language: 'french' } as never),
    );
    expect(french.code).toBe(17262);
    expect(french.message).toContain('language override unsupported: french');
    const typed = await serverError(c.insertOne({ _id: 4, t: 'x', language: 5 } as never));
    expect(typed.code).toBe(17261);
    expect(await c.countDocuments()).toBe(2);
  });
});

describe('$text with other conditions', () => {
  test('when $text comes with other conditions, sort, skip, limit and counts, then they all apply', async () => {
    const c = await articles();
    expect(
      ids(await c.find({ $text: { $search: 'coffee' }, views: { $gte: 10 } }).toArray()),
    ).toEqual([1, 7]);
    expect(
      ids(
        await c
          .find({ $and: [{ author: 'efg' }, { $text: { $search: 'coffee cake' } }] })
          .toArray(),
      ),
    ).toEqual([2, 7]);
    const page = await c
      .find({ $text: { $search: 'coffee cake' } }, { projection: { _id: 1 } })
      .sort({ views: -1 })
      .skip(1)
      .limit(2)
      .toArray();
    expect(page).toEqual([{ _id: 1 }, { _id: 7 }]);
    expect(await c.countDocuments({ $text: { $search: 'coffee' } })).toBe(3);
    expect(await c.countDocuments({ $text: { $search: 'coffee' }, author: 'efg' })).toBe(2);
    expect(await c.distinct('author', { $text: { $search: 'leche' } })).toEqual(['abc', 'xyz']);
    const r = await c.updateMany({ $text: { $search: 'baking' } }, { $set: { baked: true } });
    expect(r.modifiedCount).toBe(2);
    expect(await c.countDocuments({ $text: { $search: 'nothing' } })).toBe(0);
  });

  test('when a page is sorted by score with other conditions, then it is the same as sorting every match, ties in insertion order, even when most of the best are rejected', async () => {
    const c = db.collection<{ _id: number; text: string; keep: boolean }>('ranked');
    await c.createIndex({ text: 'text' });
    // 600 matches with 12 distinct scores (1 to 12 repetitions of the word in 12 words), so
    // ties are everywhere; `keep` rejects every document among the 400 best but a few.
    const docs = Array.from({ length: 600 }, (_, i) => {
      const n = 1 + ((i * 7) % 12);
      const words = [...Array<string>(n).fill('lantern'), ...Array<string>(12 - n).fill('quiet')];
      return { _id: i + 1, text: words.join(' '), keep: n < 9 || i % 50 === 0 };
    });
    await c.insertMany(docs);
    const all = await c
      .find({ $text: { $search: 'lantern' } }, { projection: { score: { $meta: 'textScore' } } })
      .toArray();
    // Every match sorted the long way: score descending, then insertion order.
    const expected = all
      .map((d) => ({ id: d._id, score: (d as unknown as { score: number }).score }))
      .sort((a, b) => b.score - a.score || a.id - b.id);
    const keep = new Set(docs.filter((d) => d.keep).map((d) => d._id));
    for (const [skip, limit] of [
      [0, 5],
      [3, 20],
      [0, 150],
      [140, 30],
    ] as const) {
      const page = await c
        .find(
          { $text: { $search: 'lantern' }, keep: true },
          { projection: { _id: 1, score: { $meta: 'textScore' } } },
        )
        .sort({ score: { $meta: 'textScore' } })
        .skip(skip)
        .limit(limit)
        .toArray();
      const want = expected.filter((d) => keep.has(d.id)).slice(skip, skip + limit);
      expect(page.map((d) => d._id)).toEqual(want.map((d) => d.id));
    }
    // Without other conditions: the heap alone.
    const best = await c
      .find({ $text: { $search: 'lantern' } }, { projection: { _id: 1 } })
      .sort({ score: { $meta: 'textScore' } })
      .limit(60)
      .toArray();
    expect(best.map((d) => d._id)).toEqual(expected.slice(0, 60).map((d) => d.id));
  });

  test('when $text is a branch of $or beside an indexed condition, then both are returned with scores', async () => {
    const c = await articles();
    const docs = await c
      .find(
        { $or: [{ $text: { $search: 'cake' } }, { _id: 1 }] },
        { projection: { score: { $meta: 'textScore' } } },
      )
      .toArray();
    expect(docs.map((d) => [d._id, (d as { score?: number }).score]).sort()).toEqual([
      [1, 0],
      [3, 0.75],
    ]);
    const e = await serverError(
      c.find({ $or: [{ $text: { $search: 'cake' } }, { views: 5 }] }).toArray(),
    );
    expect(e.code).toBe(291);
    expect(e.message).toContain('Failed to produce a solution for TEXT under OR');
  });

  test('when an aggregation starts with a $text $match, then later stages read the score (jstests server11675)', async () => {
    const t = db.collection<{ _id: number; text: string; words: number | number[] }>('agg');
    await t.insertMany([
      { _id: 1, text: 'apple', words: 1 },
      { _id: 2, text: 'banana', words: 1 },
      { _id: 3, text: 'apple banana', words: 2 },
      { _id: 4, text: 'cantaloupe', words: 1 },
      { _id: 5, text: 'mango', words: [1, 2, 3] },
    ]);
    await t.createIndex({ text: 'text' });
    const found = await t
      .find(
        { $text: { $search: 'apple banana' } },
        { projection: { _id: 1, score: { $meta: 'textScore' } } },
      )
      .sort({ score: { $meta: 'textScore' } })
      .toArray();
    const aggregated = await t
      .aggregate([
        { $match: { $text: { $search: 'apple banana' } } },
        { $project: { _id: 1, score: { $meta: 'textScore' } } },
        { $sort: { score: { $meta: 'textScore' } } },
      ])
      .toArray();
    expect(aggregated).toEqual(found);
    expect(found[0]).toEqual({ _id: 3, score: 1.5 });

    const [times] = await t
      .aggregate([
        { $match: { _id: 1, $text: { $search: 'apple' } } },
        {
          $project: {
            words: 1,
            score: { $meta: 'textScore' },
            x: { $multiply: ['$words', { $meta: 'textScore' }] },
          },
        },
      ])
      .toArray();
    expect(times!.x).toBe((times!.words as number) * (times!.score as number));
    const [later] = await t
      .aggregate([
        { $match: { _id: 1, $text: { $search: 'apple' } } },
        { $project: { _id: 1 } },
        { $project: { _id: 1, score: { $meta: 'textScore' } } },
      ])
      .toArray();
    expect(later).toEqual({ _id: 1, score: 1 }); // 'apple' stems to 'appl': not the whole string
    const [grouped] = await t
      .aggregate([
        { $match: { _id: 1, $text: { $search: 'apple banana' } } },
        { $group: { _id: 1, score: { $first: { $meta: 'textScore' } } } },
        { $project: { _id: 1, scoreAgain: { $meta: 'textScore' } } },
      ])
      .toArray();
    expect(grouped).toEqual({ _id: 1 });
    const unwound = await t
      .aggregate([
        { $match: { $text: { $search: 'mango' } } },
        { $project: { score: { $meta: 'textScore' }, _id: 1, words: 1 } },
        { $unwind: '$words' },
        { $project: { scoreAgain: { $meta: 'textScore' }, score: 1 } },
      ])
      .toArray();
    expect(unwound).toHaveLength(3);
    for (const d of unwound) expect(d.scoreAgain).toBe(d.score);
    expect(await t.countDocuments({ $text: { $search: 'apple' } })).toBe(2);
  });
});

describe("mongod's errors", () => {
  test("when $text has no text index, misplaced or malformed, then mongod's code and message answer", async () => {
    const none = await serverError(
      db
        .collection('missing')
        .find({ $text: { $search: 'x' } })
        .toArray(),
    );
    expect(none.code).toBe(27);
    expect(none.message).toBe(
      `text index required for $text query (no such collection '${db.databaseName}.missing')`,
    );
    const c = db.collection('c');
    await c.insertOne({ _id: 1, t: 'x' } as never);
    const noIndex = await serverError(c.find({ $text: { $search: 'x' } }).toArray());
    expect(noIndex.code).toBe(27);
    expect(noIndex.message).toBe('text index required for $text query');
    await c.createIndex({ t: 'text' });

    const cases: Array<[object, number, string]> = [
      [{ $text: { $search: 5 } }, 14, '"$search" had the wrong type. Expected string, found int'],
      [{ $text: {} }, 4, 'Missing expected field "$search"'],
      [
        { $text: { $search: 'x', $caseSensitive: 'yes' } },
        14,
        '"$caseSensitive" had the wrong type',
      ],
      [{ $text: { $search: 'x', extra: 1 } }, 2, 'extra fields in $text'],
      [{ $text: 'x' }, 2, '$text expects an object'],
      [
        { $text: { $search: 'x', $language: 'klingon' } },
        2,
        'unsupported language: "klingon" for text index version 3',
      ],
      [
        { $and: [{ $text: { $search: 'x' } }, { $text: { $search: 'y' } }] },
        2,
        'Too many text expressions',
      ],
      [{ $nor: [{ $text: { $search: 'x' } }] }, 2, 'text expression not allowed in nor'],
    ];
    for (const [filter, code, message] of cases) {
      const e = await serverError(c.find(filter).toArray());
      expect([e.code, e.message]).toEqual([code, expect.stringContaining(message)]);
    }
  });

  test('when the text score is asked for without $text, or $text is not the first stage, then it is refused', async () => {
    const c = db.collection('c');
    await c.insertOne({ _id: 1, t: 'apple' } as never);
    await c.createIndex({ t: 'text' });
    const message = 'query requires text score metadata, but it is not available';
    for (const p of [
      c.find({}, { projection: { s: { $meta: 'textScore' } } }).toArray(),
      c
        .find({})
        .sort({ s: { $meta: 'textScore' } })
        .toArray(),
      c.aggregate([{ $project: { s: { $meta: 'textScore' } } }]).toArray(),
    ]) {
      const e = await serverError(p);
      expect([e.code, e.message]).toEqual([40218, message]);
    }
    const hinted = await serverError(
      c.find({ $text: { $search: 'apple' } }, { hint: { _id: 1 } }).toArray(),
    );
    expect([hinted.code, hinted.message]).toEqual([2, 'text and hint not allowed in same query']);
    const second = await serverError(
      c.aggregate([{ $sort: { t: 1 } }, { $match: { $text: { $search: 'apple' } } }]).toArray(),
    );
    expect([second.code, second.message]).toEqual([
      17313,
      '$match with $text is only allowed as the first pipeline stage',
    ]);
  });
});

describe('compound text indexes', () => {
  test('when the index has a prefix field, then a $text query must give it by equality and reads only its posts', async () => {
    const posts = db.collection('posts');
    await posts.createIndex({ authorId: 1, content: 'text' });
    await posts.insertMany([
      { _id: 1, authorId: 'a', content: 'walking the dog' },
      { _id: 2, authorId: 'b', content: 'dogs walk' },
      { _id: 3, authorId: 'a', content: 'cats' },
    ] as never[]);
    expect(ids(await posts.find({ authorId: 'a', $text: { $search: 'dog' } }).toArray())).toEqual([
      1,
    ]);
    expect(
      ids(await posts.find({ authorId: { $eq: 'b' }, $text: { $search: 'walked' } }).toArray()),
    ).toEqual([2]);
    const e = await serverError(posts.find({ $text: { $search: 'dog' } }).toArray());
    expect(e.code).toBe(291);
    expect(e.message).toContain(
      'failed to use text index to satisfy $text query (if text index is compound, are equality predicates given for all prefix fields?)',
    );
    const arrayPrefix = await serverError(posts.insertOne({ authorId: ['a', 'b'], content: 'x' }));
    expect(arrayPrefix.code).toBe(171);
    expect(arrayPrefix.message).toContain("Field 'authorId' of text index contains an array");
  });
});

describe('index maintenance', () => {
  test('when documents are updated, replaced and deleted, then the search follows', async () => {
    const c = db.collection<{ _id: number; t: string; likes?: number }>('m');
    await c.createIndex({ t: 'text' });
    await c.insertMany([
      { _id: 1, t: 'red apple' },
      { _id: 2, t: 'green pear' },
    ]);
    const find = async (s: string) => ids(await c.find({ $text: { $search: s } }).toArray());
    await c.updateOne({ _id: 1 }, { $set: { t: 'blue berry' } });
    expect(await find('apple')).toEqual([]);
    expect(await find('berries')).toEqual([1]);
    await c.updateOne({ _id: 1 }, { $inc: { likes: 1 } });
    expect(await find('berry')).toEqual([1]);
    await c.replaceOne({ _id: 2 }, { t: 'yellow banana' });
    expect(await find('pear banana')).toEqual([2]);
    await c.deleteOne({ _id: 2 });
    expect(await find('banana')).toEqual([]);
    await c.insertOne({ _id: 3, t: 'banana split' });
    expect(await find('banana')).toEqual([3]);
  });

  test('when documents leave and others take their place, then several words still sum per document', async () => {
    // Documents are filed under ordinals that are reused: a search must never give a deleted
    // document's words to the one that took its ordinal, nor count a document twice.
    const c = db.collection<{ _id: number; t: string }>('reuse');
    await c.createIndex({ t: 'text' });
    await c.insertMany(
      Array.from({ length: 20 }, (_, i) => ({ _id: i, t: i % 2 ? 'red apple' : 'green pear' })),
    );
    await c.deleteMany({ _id: { $lt: 10 } });
    await c.insertMany(
      Array.from({ length: 5 }, (_, i) => ({ _id: 100 + i, t: 'apple apple pie' })),
    );
    await c.replaceOne({ _id: 11 }, { t: 'pear' });
    const scores = async (search: string) => {
      const docs = await c
        .find({ $text: { $search: search } }, { projection: { score: { $meta: 'textScore' } } })
        .toArray();
      const out = new Map<number, number>();
      for (const d of docs) {
        expect(out.has(d._id)).toBe(false);
        out.set(d._id, (d as unknown as { score: number }).score);
      }
      return out;
    };
    const words = await Promise.all(['apple', 'pear', 'pie'].map(scores));
    const all = await scores('apple pear pie');
    expect([...all.keys()].sort((x, y) => x - y)).toEqual([
      10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 100, 101, 102, 103, 104,
    ]);
    for (const [id, score] of all)
      expect(score).toBeCloseTo(
        words.reduce((sum, w) => sum + (w.get(id) ?? 0), 0),
        10,
      );
    // the re-filed documents score as their own words say: 11 is 'pear' alone now
    expect(words[0]!.has(11)).toBe(false);
    expect(all.get(104)).toBeGreaterThan(all.get(13)!);
    expect(await c.countDocuments({ $text: { $search: 'apple pear' } })).toBe(15);
  });

  test('when the server restarts, also after a compaction, then the text index is there and searches', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-text-'));
    try {
      let s = await start({ port: 0, dbPath: dir, fsync: 'never' });
      let cl = await MongoClient.connect(s.uri);
      const name = 'restart';
      await cl
        .db(name)
        .collection('c')
        .createIndex({ authorId: 1, t: 'text' }, { weights: { t: 3 } });
      await cl
        .db(name)
        .collection('c')
        .insertMany([
          { _id: 1, authorId: 1, t: 'snowy mountains' },
          { _id: 2, authorId: 1, t: 'sunny beaches' },
        ] as never[]);
      await cl.close();
      await s.stop();
      for (const compact of [false, true]) {
        s = await start({ port: 0, dbPath: dir, fsync: 'never' });
        cl = await MongoClient.connect(s.uri);
        const c = cl.db(name).collection('c');
        const [, ix] = await c.listIndexes().toArray();
        expect(ix).toMatchObject({
          key: { authorId: 1, _fts: 'text', _ftsx: 1 },
          weights: { t: 3 },
        });
        expect(
          await c
            .find(
              { authorId: 1, $text: { $search: 'mountain' } },
              { projection: { score: { $meta: 'textScore' } } },
            )
            .toArray(),
        ).toEqual([{ _id: 1, authorId: 1, t: 'snowy mountains', score: 3 * 0.75 }]);
        if (compact) s.engine.compact();
        await cl.close();
        await s.stop();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('mongoose', () => {
  test('when a schema declares a text index, then the model creates it, keeps it in sync and searches', async () => {
    const conn = await mongoose
      .createConnection(`${server.uri}/text-mongoose-${++dbSeq}`)
      .asPromise();
    try {
      const schema = new mongoose.Schema({ authorId: Number, content: String });
      schema.index({ content: 'text' });
      const Post = conn.model('Post', schema);
      await Post.init();
      await Post.create([
        { authorId: 1, content: 'Learning TypeScript generics' },
        { authorId: 2, content: 'Generic pancakes' },
        { authorId: 1, content: 'Morning run' },
      ]);
      expect(await Post.diffIndexes()).toEqual({ toDrop: [], toCreate: [] });
      const found = await Post.find(
        { $text: { $search: 'generics' } },
        { score: { $meta: 'textScore' } },
      )
        .sort({ score: { $meta: 'textScore' } })
        .lean();
      expect(found.map((p) => p.content)).toEqual([
        'Generic pancakes',
        'Learning TypeScript generics',
      ]);
      expect(await Post.countDocuments({ $text: { $search: 'pancake' }, authorId: 2 })).toBe(1);
    } finally {
      await conn.close();
    }
  });
});
