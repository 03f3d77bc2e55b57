import { trusted } from 'mongoose';
import {
  MAX_MUTED_WORDS,
  type MutedWord,
  type MutedWordRequest,
  type MuteDuration,
} from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { badRequest, notFound } from '../../platform/errors';
import { isDuplicateKey } from '../../platform/mongo-errors';
import { mutedWordsOf, type MutedWordDoc } from './model';
import { muteEnd } from './mute-member';
import { foldText } from './muted-words-match';

export const WORD_LIMIT_MESSAGE = `You can mute at most ${MAX_MUTED_WORDS} words or phrases`;
export const WORD_NOT_FOUND = 'Muted word not found';

export function toMutedWord(
  w: Pick<MutedWordDoc, '_id' | 'phrase' | 'until' | 'createdAt'>,
): MutedWord {
  return {
    id: w._id,
    phrase: w.phrase,
    until: w.until ? w.until.toISOString() : null,
    createdAt: w.createdAt.toISOString(),
  };
}

/**
 * Mutes a word or phrase (whole words, any case, diacritics folded, hashtags included) for
 * `duration`. The same phrase again (as folded) sets its new duration. Words that ran out do
 * not count against the limit.
 */
export async function addMutedWord(
  ctx: AppContext,
  actor: AuthUser,
  input: { phrase: string; duration: MuteDuration } & Partial<MutedWordRequest>,
): Promise<MutedWord> {
  // Spaces collapsed as they are when matching: "final  exam" is kept as "final exam".
  const phrase = input.phrase.replace(/\s+/gu, ' ');
  const folded = foldText(phrase);
  // Marks alone fold to nothing: nothing would ever match.
  if (!/[\p{L}\p{N}]/u.test(folded))
    throw badRequest('Word or phrase must contain a letter or digit');
  const MutedWords = mutedWordsOf(ctx);
  const now = ctx.clock.now();
  const until = muteEnd(ctx, input.duration);
  const existing = await MutedWords.exists({ userId: actor.id, folded });
  if (!existing) {
    const inForce = await MutedWords.countDocuments({
      userId: actor.id,
      $or: [{ until: null }, { until: trusted({ $gt: now }) }],
    });
    if (inForce >= MAX_MUTED_WORDS) throw badRequest(WORD_LIMIT_MESSAGE);
  }
  const id = await ctx.ids.nextIdOfBlock('mutedwords');
  try {
    const saved = await ctx.transaction(async () => {
      const doc = await MutedWords.findOneAndUpdate(
        { userId: actor.id, folded },
        {
          $set: { phrase, until, createdAt: now },
          $setOnInsert: { _id: id },
        },
        { upsert: true, returnDocument: 'after' },
      ).lean();
      ctx.publish({ type: 'word.muted', userId: actor.id, wordId: doc!._id });
      return doc!;
    });
    return toMutedWord(saved);
  } catch (err) {
    if (isDuplicateKey(err)) throw badRequest('That word or phrase is being muted already');
    throw err;
  }
}

/** Unmutes one of the caller's words (another member's, or none: 404). */
export async function removeMutedWord(
  ctx: AppContext,
  actor: AuthUser,
  wordId: number,
): Promise<void> {
  await ctx.transaction(async () => {
    const removed = await mutedWordsOf(ctx).deleteOne({ _id: wordId, userId: actor.id });
    if (removed.deletedCount === 0) throw notFound(WORD_NOT_FOUND);
    ctx.publish({ type: 'word.unmuted', userId: actor.id, wordId });
  });
}
