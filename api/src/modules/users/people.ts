import { trusted } from 'mongoose';
import {
  USER_SEARCH_LIMIT,
  USER_SUGGESTIONS_LIMIT,
  type UserInList,
  type UserSuggestion,
} from '@campus/contracts';
import type { AppContext } from '../../context';
import {
  followedAmong,
  followedByMost,
  followedIds,
  followerCounts,
  mostFollowed,
} from '../follows/queries';
import { viewerSafety } from '../safety/relations';
import { usersOf } from './model';
import { PUBLIC_USER_FIELDS, toUserInList, type UserFields } from './presenters';
import { domainQuery, normalizeForSearch, prefixPattern, searchWords } from './search-terms';

/** Only members others may find: verified and not suspended. */
// (Not "suspendedAt: null": the embedded planner would take that equality's index, which almost
// every member is in, over the search range.)
// A fresh object each time: mongoose casts filters in place.
const findableFilter = () => ({
  isVerified: true,
  suspendedAt: trusted({ $not: { $type: 'date' as const } }),
});

/** How many people followed by the people one follows are ranked for suggestions at most. */
const SUGGESTION_CANDIDATES = 200;
/** How many of the people one follows suggestions look through (the most recently followed). */
const SUGGESTION_SOURCES = 1_000;
/** The most followed members are counted once a minute per app (a scan of every follow)... */
const POPULAR_TTL_MS = 60_000;
/** ...and this many of them kept to fill suggestions. */
const POPULAR_KEPT = 200;

/** Each app's count of the most followed members (a scan of every follow), kept a minute. */
const popularOf = new WeakMap<
  AppContext,
  { until: number; rows: Promise<Array<{ id: number; count: number }>> }
>();

/** The most followed members besides `excluded`, from the app's per-minute count when it can. */
async function mostFollowedCounted(
  ctx: AppContext,
  excluded: Set<number>,
  limit: number,
): Promise<Array<{ id: number; count: number }>> {
  let popular = popularOf.get(ctx);
  if (!popular || popular.until < Date.now()) {
    const rows = mostFollowed(ctx, [], POPULAR_KEPT);
    popular = { until: Date.now() + POPULAR_TTL_MS, rows };
    popularOf.set(ctx, popular);
    rows.catch(() => popularOf.delete(ctx));
  }
  const rows = await popular.rows;
  const kept = rows.filter((r) => !excluded.has(r.id)).slice(0, limit);
  // Someone following most of the most followed: count for them alone.
  if (kept.length < limit && rows.length === POPULAR_KEPT)
    return mostFollowed(ctx, [...excluded], limit);
  return kept;
}

/**
 * Members whose name has a word starting with each word of `q`, or whose name or e-mail starts
 * with `q` as typed, or (for a `q` like 'campus.edu' or '@campus') whose e-mail is at that domain, case- and accent-insensitively: at most 20, by name, each with whether
 * the viewer follows them. Each word is a range of the `searchTerms` index.
 */
export async function searchUsers(
  ctx: AppContext,
  q: string,
  viewerId: number,
): Promise<UserInList[]> {
  const { publicUrl } = ctx.config;
  const words = searchWords(q);
  const whole = normalizeForSearch(q).replace(/\s+/g, ' ');
  const domain = domainQuery(whole);
  const matches = [
    { searchTerms: prefixPattern(whole) },
    ...(words.length ? [{ $and: words.map((w) => ({ searchTerms: prefixPattern(w) })) }] : []),
    // 'campus.edu' or '@campus': the members whose address is at that domain.
    ...(domain ? [{ searchTerms: prefixPattern(domain) }] : []),
  ];
  // Every match has a term starting with the first word: that range of the index is all
  // that is read (the regular expressions then check each candidate). Not so for a domain.
  const lead = words[0];
  const range =
    lead !== undefined && whole.startsWith(lead) && !domain
      ? { searchTerms: trusted({ $gte: lead, $lt: `${lead}\uffff` }) }
      : {};
  const safety = await viewerSafety(ctx, viewerId);
  // Members blocked either way are not found (left out by the query: the page stays full).
  const blocked = [...safety.record.blocked];
  const query = usersOf(ctx)
    .find(
      {
        ...findableFilter(),
        ...range,
        $or: matches,
        ...(blocked.length ? { _id: trusted({ $nin: blocked }) } : {}),
      },
      PUBLIC_USER_FIELDS,
    )
    .sort({ name: 1, _id: 1 })
    .limit(USER_SEARCH_LIMIT);
  // A domain matches most members (every one, for the campus's own): read them in name order
  // and stop at the page, instead of reading every match to sort it (issue 42: this read grew
  // with the members). A rare domain reads further, at most the findable members once.
  if (domain) query.hint({ name: 1, _id: 1 });
  const users = await query.lean<UserFields[]>();
  const followed = await followedAmong(
    ctx,
    viewerId,
    users.map((u) => u._id),
  );
  return users.map((u) => toUserInList(u, followed.has(u._id), publicUrl));
}

/**
 * Up to 10 people to follow: those followed by the people the viewer follows, ranked by how
 * many of them, then by followers; the most followed members fill the rest. Never the viewer
 * or anyone they follow; only findable members. A few aggregations, each bounded.
 */
export async function suggestUsers(ctx: AppContext, viewerId: number): Promise<UserSuggestion[]> {
  const { publicUrl } = ctx.config;
  const [followed, safety] = await Promise.all([
    followedIds(ctx, viewerId),
    viewerSafety(ctx, viewerId),
  ]);
  const sources = followed.slice(-SUGGESTION_SOURCES);
  // Never someone the viewer blocked or who blocked the viewer, nor someone the viewer mutes.
  const excluded = [viewerId, ...followed, ...safety.record.blocked, ...safety.record.mutes.keys()];
  const candidates = await followedByMost(ctx, sources, excluded, SUGGESTION_CANDIDATES);
  const followers = await followerCounts(
    ctx,
    candidates.map((c) => c.id),
  );
  const ranked = candidates
    .map((c) => ({ id: c.id, mutualCount: c.count, followersCount: followers.get(c.id) ?? 0 }))
    .sort(
      (a, b) => b.mutualCount - a.mutualCount || b.followersCount - a.followersCount || a.id - b.id,
    );
  // Room for candidates that turn out unverified or suspended.
  const wanted = USER_SUGGESTIONS_LIMIT * 2;
  if (ranked.length < wanted) {
    const taken = new Set(ranked.map((r) => r.id));
    const most = await mostFollowedCounted(
      ctx,
      new Set([...excluded, ...taken]),
      wanted - ranked.length,
    );
    ranked.push(...most.map((p) => ({ id: p.id, mutualCount: 0, followersCount: p.count })));
  }
  let users = await findable(
    ctx,
    ranked.map((r) => r.id),
  );
  if (users.size < USER_SUGGESTIONS_LIMIT) {
    // Few people are followed at all: anyone findable who is not followed yet, newest first.
    const more = await usersOf(ctx)
      .find(
        { ...findableFilter(), _id: trusted({ $nin: [...excluded, ...ranked.map((r) => r.id)] }) },
        PUBLIC_USER_FIELDS,
      )
      .sort({ createdAt: -1, _id: -1 })
      .limit(USER_SUGGESTIONS_LIMIT - users.size)
      .lean<UserFields[]>();
    for (const u of more) ranked.push({ id: u._id, mutualCount: 0, followersCount: 0 });
    users = new Map([...users, ...more.map((u) => [u._id, u] as const)]);
  }
  return ranked
    .flatMap((r) => {
      const user = users.get(r.id);
      if (!user) return [];
      return [
        {
          ...toUserInList(user, false, publicUrl),
          isFollowing: false as const,
          mutualCount: r.mutualCount,
          followersCount: r.followersCount,
        },
      ];
    })
    .slice(0, USER_SUGGESTIONS_LIMIT);
}

/** The findable members among `ids`. */
async function findable(ctx: AppContext, ids: number[]): Promise<Map<number, UserFields>> {
  if (!ids.length) return new Map();
  const users = await usersOf(ctx)
    .find({ ...findableFilter(), _id: trusted({ $in: ids }) }, PUBLIC_USER_FIELDS)
    .lean<UserFields[]>();
  return new Map(users.map((u) => [u._id, u]));
}
