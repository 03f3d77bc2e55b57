import { trusted } from 'mongoose';
import type { SafetyLists, SafetyMember } from '@campus/contracts';
import type { AppContext } from '../../context';
import { actorsById } from '../users/queries';
import { blocksOf, mutedWordsOf, mutesOf } from './model';
import { toMutedWord } from './muted-words';

/**
 * The caller's Privacy and safety lists (Settings): the members they blocked, the members they
 * mute and the words they mute, those still in force, newest first. Members who deleted their
 * account are left out.
 */
export async function safetyLists(ctx: AppContext, userId: number): Promise<SafetyLists> {
  const now = ctx.clock.now();
  const inForce = { $or: [{ until: null }, { until: trusted({ $gt: now }) }] };
  const newest = { createdAt: -1 as const, _id: -1 as const };
  const [blocks, mutes, words] = await Promise.all([
    blocksOf(ctx).find({ blockerId: userId }).sort(newest).lean(),
    mutesOf(ctx)
      .find({ muterId: userId, ...inForce })
      .sort(newest)
      .lean(),
    mutedWordsOf(ctx)
      .find({ userId, ...inForce })
      .sort(newest)
      .lean(),
  ]);
  const members = await actorsById(ctx, [
    ...blocks.map((b) => b.blockedId),
    ...mutes.map((m) => m.mutedId),
  ]);
  const emails = await ctx.caches.authors.byId(members.keys());
  const member = (id: number, since: Date): SafetyMember[] => {
    const m = members.get(id);
    if (!m) return [];
    return [
      {
        id,
        name: m.name,
        email: emails.get(id)?.email ?? '',
        avatarUrl: m.avatarUrl,
        since: since.toISOString(),
      },
    ];
  };
  return {
    blocked: blocks.flatMap((b) => member(b.blockedId, b.createdAt)),
    muted: mutes.flatMap((m) =>
      member(m.mutedId, m.createdAt).map((u) => ({
        ...u,
        until: m.until ? m.until.toISOString() : null,
      })),
    ),
    words: words.map(toMutedWord),
  };
}
