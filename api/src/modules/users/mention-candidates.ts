/**
 * Members as @mentions read them (issue 40): who can be mentioned by id (`mentionableNames`), and
 * who the mention autocomplete proposes for what was typed (`membersMatching`, matched as people
 * search matches: a word of the name, or the name or e-mail as typed, starting with it).
 */
import { trusted } from 'mongoose';
import type { AppContext } from '../../context';
import { findOneBatch } from '../../platform/one-batch';
import { usersOf } from './model';
import { PUBLIC_USER_FIELDS, type UserFields } from './presenters';
import { normalizeForSearch, prefixPattern, searchWords } from './search-terms';

/** Verified and not suspended: the members others may find, and so mention. */
// A fresh object each time: mongoose casts filters in place.
const findableFilter = () => ({
  isVerified: true,
  suspendedAt: trusted({ $not: { $type: 'date' as const } }),
});

/**
 * The same, for a command sent as it is (`findOneBatch`: no mongoose query to build and cast on
 * every keystroke of the autocomplete).
 */
/** What a candidate shows (people search's public fields), as a projection of the command. */
const CANDIDATE_FIELDS = Object.fromEntries(
  Object.keys(PUBLIC_USER_FIELDS).map((field) => [field, 1 as const]),
);

const rawFindable = () => ({ isVerified: true, suspendedAt: { $not: { $type: 'date' } } });

/** The current names of the members among `ids` who can be mentioned (others are left out). */
export async function mentionableNames(
  ctx: AppContext,
  ids: number[],
): Promise<Map<number, string>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const users = await usersOf(ctx)
    .find({ _id: trusted({ $in: wanted }), ...findableFilter() }, { name: 1 })
    .lean<Array<{ _id: number; name: string }>>();
  return new Map(users.map((u) => [u._id, u.name]));
}

/**
 * Findable members matching `q` (as people search matches), never those in `excluded`, at most
 * `limit`, by name:
 *
 * - among `among` (the people the caller follows) when it is given, every one of them that
 *   matches read and sorted by name (an empty `q` matches all of them);
 * - else among everyone, read in the order of the `searchTerms` index from the range of the first
 *   word typed, stopping at `limit`: the first ones in that order, then sorted by name. A sort by
 *   name in the query would read every member with a word starting with what was typed (after
 *   '@a', most of them) on each keystroke. Nothing to range over (an empty `q`, or one without a
 *   letter or digit first) finds no one: the autocomplete never lists every member.
 */
export async function membersMatching(
  ctx: AppContext,
  q: string,
  options: { among?: readonly number[]; excluded: ReadonlySet<number>; limit: number },
): Promise<UserFields[]> {
  const { among, excluded, limit } = options;
  const whole = normalizeForSearch(q).replace(/\s+/g, ' ');
  const words = searchWords(q);
  const match =
    whole === ''
      ? {}
      : {
          $or: [
            { searchTerms: prefixPattern(whole) },
            ...(words.length
              ? [{ $and: words.map((w) => ({ searchTerms: prefixPattern(w) })) }]
              : []),
          ],
        };
  if (among !== undefined) {
    const candidates = among.filter((id) => !excluded.has(id));
    if (candidates.length === 0) return [];
    return findOneBatch<UserFields>(usersOf(ctx), {
      filter: { ...rawFindable(), ...match, _id: { $in: candidates } },
      sort: { name: 1, _id: 1 },
      limit,
      projection: CANDIDATE_FIELDS,
    });
  }
  // Every match has a term starting with the first word: that range of the index is all that
  // is read (the regular expressions then check each candidate).
  const lead = words[0];
  if (lead === undefined || !whole.startsWith(lead)) return [];
  const found = await findOneBatch<UserFields>(usersOf(ctx), {
    filter: {
      ...rawFindable(),
      searchTerms: { $gte: lead, $lt: `${lead}\uffff` },
      ...match,
      ...(excluded.size ? { _id: { $nin: [...excluded] } } : {}),
    },
    limit,
    projection: CANDIDATE_FIELDS,
  });
  return found.sort((a, b) => a.name.localeCompare(b.name) || a._id - b._id);
}
