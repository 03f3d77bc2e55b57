/**
 * Issue 38's bench:api member: a member with 500 blocks and mutes (250 of each, forever, of
 * members spread over all members) and 50 muted words, beside a member with none who follows the same
 * people, so that their feed pages can be measured in the same run. Both are copies of one bench
 * member (their follows too) under new ids; `remove()` takes them and everything they hold out
 * of the bench database again, so the dataset other benchmarks read is left as it was.
 */
import { trusted } from 'mongoose';
import type { Models } from '../../api/src/models';
import type { Database } from '../../api/src/platform/db';

export const SAFETY_BLOCKS = 250;
export const SAFETY_MUTES = 250;
export const SAFETY_WORDS = 50;

/**
 * Words a campus member might mute: one of them in the bench's vocabulary (dataset.ts), so some
 * posts show collapsed, as for a member in real life; the rest in none of its posts.
 */
const WORDS = [
  'football',
  'hackathon',
  'midterm',
  'parking',
  'crypto',
  'election',
  'spoiler',
  'weather',
  'diet',
  'landlord',
  'rent',
  'roommate',
  'karaoke',
  'pizza',
  'final grades',
  'group project',
  'library fines',
  'dining hall',
  'bus strike',
  'fire alarm',
  'lost keys',
  'open mic',
  'study abroad',
  'night shift',
  'thesis defense',
  'lab safety',
  'flu season',
  'snow day',
  'power outage',
  'job offer',
  'salary',
  'podcast',
  'reality tv',
  'fantasy league',
  'ski trip',
  'road trip',
  'concert tickets',
  'housing lottery',
  'meal plan',
  'tuition',
  'scholarship',
  '#mondaymotivation',
  'horoscope',
  'gossip',
  'diet tips',
  'celebrity',
  'lottery',
  'politics',
  'traffic',
  'tiktok',
];

export interface SafetyMembers {
  /** Follows the same people as `safetyId`, hides nothing. */
  plainId: number;
  /** 250 blocks, 250 mutes, 50 muted words. */
  safetyId: number;
  remove(): Promise<void>;
}

export async function createSafetyMembers(database: Database<Models>): Promise<SafetyMembers> {
  const { User, Follow, Block, Mute, MutedWord } = database.models;
  // The bench member who follows the most people: the Following tab has the most to read.
  const [busiest] = await Follow.aggregate<{ _id: number; count: number }>([
    { $group: { _id: '$followerId', count: { $sum: 1 } } },
    { $sort: { count: -1, _id: 1 } },
    { $limit: 1 },
  ]);
  if (!busiest) throw new Error('The bench database has no follows: run `npm run bench:data`');
  const source = await User.findById(busiest._id).lean();
  const [{ _id: topUser } = { _id: 0 }] = await User.find({}, { _id: 1 })
    .sort({ _id: -1 })
    .limit(1)
    .lean();
  const plainId = topUser + 1_000_001;
  const safetyId = plainId + 1;
  const follows = await Follow.find({ followerId: busiest._id }, { followingId: 1 }).lean();
  const followed = new Set(follows.map((f) => f.followingId));
  const [{ _id: topFollow } = { _id: 0 }] = await Follow.find({}, { _id: 1 })
    .sort({ _id: -1 })
    .limit(1)
    .lean();
  const stamp = Date.now();
  for (const [i, id] of [plainId, safetyId].entries()) {
    await User.collection.insertOne({
      ...source!,
      _id: id,
      email: `bench.safety.${i}.${stamp}@campus.edu`,
    } as never);
    await Follow.insertMany(
      follows.map((f, j) => ({
        _id: topFollow + 1_000_000 + i * 100_000 + j,
        followerId: id,
        followingId: f.followingId,
      })),
    );
  }
  // Blocked and muted: members neither follows (a member blocks or mutes people they do not
  // follow: a block would end the follow).
  const excluded = new Set([plainId, safetyId, busiest._id, ...followed]);
  const candidates = (await User.find({}, { _id: 1 }).sort({ _id: 1 }).lean())
    .map((u) => u._id)
    .filter((id) => !excluded.has(id));
  // Spread over every member (evenly, so that each run picks the same ones).
  const wanted = SAFETY_BLOCKS + SAFETY_MUTES;
  const step = Math.max(1, Math.floor(candidates.length / wanted));
  const others = candidates
    .filter((_, i) => i % step === 0)
    .slice(0, wanted)
    .map((id) => ({ _id: id }));
  const now = new Date();
  await Block.insertMany(
    others.slice(0, SAFETY_BLOCKS).map((u, i) => ({
      _id: 1_000_000_000 + i,
      blockerId: safetyId,
      blockedId: u._id,
      createdAt: now,
    })),
  );
  await Mute.insertMany(
    others.slice(SAFETY_BLOCKS).map((u, i) => ({
      _id: 1_000_000_000 + i,
      muterId: safetyId,
      mutedId: u._id,
      until: null,
      createdAt: now,
    })),
  );
  await MutedWord.insertMany(
    WORDS.slice(0, SAFETY_WORDS).map((phrase, i) => ({
      _id: 1_000_000_000 + i,
      userId: safetyId,
      phrase,
      folded: phrase,
      until: null,
      createdAt: now,
    })),
  );
  return {
    plainId,
    safetyId,
    async remove() {
      const ids = trusted({ $in: [plainId, safetyId] });
      await Block.deleteMany({ blockerId: safetyId });
      await Mute.deleteMany({ muterId: safetyId });
      await MutedWord.deleteMany({ userId: safetyId });
      await Follow.deleteMany({ followerId: ids });
      await User.deleteMany({ _id: ids });
    },
  };
}
