/**
 * Members as @mentions read them (issue 40): who can be mentioned by id (`mentionableNames`), and
 * who the mention autocomplete proposes for what was typed (`membersMatching`, matched as people
 * search matches: a word of the name, or the name or e-mail as typed, starting with it).
 */
import { trusted } from 'mongoose';
import type { AppContext } from '../../context';
import { usersOf } from './model';
import { PUBLIC_USER_FIELDS, type UserFields } from './presenters';
import { normalizeForSearch, prefixPattern, searchWords } from './search-terms';

/** Verified and not suspended: the members others may find, and so mention. */
// A fresh object each time: mongoose casts filters in place.
const findableFilter = () => ({
  isVerified: true,
  suspendedAt: trusted({ $not: { $type: 'date' as const } }),
});

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
 * Findable members matching `q` (as people search matches; an empty `q` matches everyone),
 * among `among` when it is given, never those in `excluded`: by name, at most `limit`. Without
 * `among`, an empty `q` finds no one (the autocomplete never lists every member).
 */
export async function membersMatching(
  ctx: AppContext,
  q: string,
  options: { among?: readonly number[]; excluded: ReadonlySet<number>; limit: number },
): Promise<UserFields[]> {
  const { among, excluded, limit } = options;
  const whole = normalizeForSearch(q).replace(/\s+/g, ' ');
  const words = searchWords(q);
  if (whole === '' && among === undefined) return [];
  const candidates = among?.filter((id) => !excluded.has(id));
  if (candidates?.length === 0) return [];
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
  // Every match has a term starting with the first word: that range of the index is all that
  // is read for a search among everyone (the regular expressions then check each candidate).
  const lead = words[0];
  const range =
    candidates === undefined && lead !== undefined && whole.startsWith(lead)
      ? { searchTerms: trusted({ $gte: lead, $lt: `${lead}\uffff` }) }
      : {};
  const ids =
    candidates !== undefined
      ? { _id: trusted({ $in: candidates }) }
      : excluded.size
        ? { _id: trusted({ $nin: [...excluded] }) }
        : {};
  return usersOf(ctx)
    .find({ ...findableFilter(), ...range, ...match, ...ids }, PUBLIC_USER_FIELDS)
    .sort({ name: 1, _id: 1 })
    .limit(limit)
    .lean<UserFields[]>();
}
