import { trusted } from 'mongoose';
import {
  USER_SEARCH_LIMIT,
  USER_SUGGESTIONS_LIMIT,
  type UserInList,
  type UserSuggestion,
} from '@campus/contracts';
import type { FollowService } from '../follows/service';
import type { UserModel } from './model';
import { PUBLIC_USER_FIELDS, toUserInList, type UserFields } from './presenters';
import { normalizeForSearch, prefixPattern, searchWords } from './search-terms';

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

export interface PeopleServiceDeps {
  models: { User: UserModel };
  follows: Pick<
    FollowService,
    'followedAmong' | 'followedByMost' | 'followerCounts' | 'mostFollowed' | 'followedIds'
  >;
}

/** People search and who to follow (the follow graph is read through the follows service). */
export function createPeopleService({ models: { User }, follows }: PeopleServiceDeps) {
  let popular: { until: number; rows: Promise<Array<{ id: number; count: number }>> } | undefined;

  /** The most followed members besides `excluded`, from the app's per-minute count when it can. */
  async function mostFollowed(
    excluded: Set<number>,
    limit: number,
  ): Promise<Array<{ id: number; count: number }>> {
    if (!popular || popular.until < Date.now()) {
      const rows = follows.mostFollowed([], POPULAR_KEPT);
      popular = { until: Date.now() + POPULAR_TTL_MS, rows };
      rows.catch(() => (popular = undefined));
    }
    const rows = await popular.rows;
    const kept = rows.filter((r) => !excluded.has(r.id)).slice(0, limit);
    // Someone following most of the most followed: count for them alone.
    if (kept.length < limit && rows.length === POPULAR_KEPT)
      return follows.mostFollowed([...excluded], limit);
    return kept;
  }

  /**
   * Members whose name has a word starting with each word of `q`, or whose name or e-mail starts
   * with `q` as typed, case- and accent-insensitively: at most 20, by name, each with whether
   * the viewer follows them. Each word is a range of the `searchTerms` index.
   */
  async function searchUsers(
    q: string,
    viewerId: number,
    publicUrl: string,
  ): Promise<UserInList[]> {
    const words = searchWords(q);
    const whole = normalizeForSearch(q).replace(/\s+/g, ' ');
    const matches = [
      { searchTerms: prefixPattern(whole) },
      ...(words.length ? [{ $and: words.map((w) => ({ searchTerms: prefixPattern(w) })) }] : []),
    ];
    // Every match has a term starting with the first word: that range of the index is all
    // that is read (the regular expressions then check each candidate).
    const lead = words[0];
    const range =
      lead !== undefined && whole.startsWith(lead)
        ? { searchTerms: trusted({ $gte: lead, $lt: `${lead}\uffff` }) }
        : {};
    const users = await User.find(
      { ...findableFilter(), ...range, $or: matches },
      PUBLIC_USER_FIELDS,
    )
      .sort({ name: 1, _id: 1 })
      .limit(USER_SEARCH_LIMIT)
      .lean<UserFields[]>();
    const followed = await follows.followedAmong(
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
  async function suggestUsers(viewerId: number, publicUrl: string): Promise<UserSuggestion[]> {
    const followed = await follows.followedIds(viewerId);
    const sources = followed.slice(-SUGGESTION_SOURCES);
    const excluded = [viewerId, ...followed];
    const candidates = await follows.followedByMost(sources, excluded, SUGGESTION_CANDIDATES);
    const followers = await follows.followerCounts(candidates.map((c) => c.id));
    const ranked = candidates
      .map((c) => ({ id: c.id, mutualCount: c.count, followersCount: followers.get(c.id) ?? 0 }))
      .sort(
        (a, b) =>
          b.mutualCount - a.mutualCount || b.followersCount - a.followersCount || a.id - b.id,
      );
    // Room for candidates that turn out unverified or suspended.
    const wanted = USER_SUGGESTIONS_LIMIT * 2;
    if (ranked.length < wanted) {
      const taken = new Set(ranked.map((r) => r.id));
      const most = await mostFollowed(new Set([...excluded, ...taken]), wanted - ranked.length);
      ranked.push(...most.map((p) => ({ id: p.id, mutualCount: 0, followersCount: p.count })));
    }
    let users = await findable(ranked.map((r) => r.id));
    if (users.size < USER_SUGGESTIONS_LIMIT) {
      // Few people are followed at all: anyone findable who is not followed yet, newest first.
      const more = await User.find(
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
  async function findable(ids: number[]): Promise<Map<number, UserFields>> {
    if (!ids.length) return new Map();
    const users = await User.find(
      { ...findableFilter(), _id: trusted({ $in: ids }) },
      PUBLIC_USER_FIELDS,
    ).lean<UserFields[]>();
    return new Map(users.map((u) => [u._id, u]));
  }

  return { searchUsers, suggestUsers };
}

export type PeopleService = ReturnType<typeof createPeopleService>;
