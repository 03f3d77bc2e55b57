/**
 * The mention autocomplete (`GET /api/users/mention-suggestions?q=`, issue 40): members whose
 * name or e-mail starts with what was typed after '@' (as people search matches), the people the
 * caller follows first, then the others, each by name; at most MENTION_SUGGESTIONS_LIMIT. Never
 * the caller, nor a member blocked either way. An empty q answers people the caller follows.
 * Two indexed reads, in parallel; the caller's follows come from the feed cache's follow lists.
 */
import { MENTION_SUGGESTIONS_LIMIT, type MentionCandidate } from '@campus/contracts';
import type { AppContext } from '../../context';
import { followedIds } from '../follows/queries';
import { viewerSafety } from '../safety/relations';
import { membersMatching } from '../users/mention-candidates';
import { toUserInList } from '../users/presenters';

export async function mentionSuggestions(
  ctx: AppContext,
  viewerId: number,
  typed: string,
): Promise<MentionCandidate[]> {
  const q = typed.replace(/^@/, '').trim();
  const [followed, safety] = await Promise.all([
    ctx.caches.feed.followedBy(viewerId, () => followedIds(ctx, viewerId)),
    viewerSafety(ctx, viewerId),
  ]);
  const excluded = new Set([viewerId, ...safety.record.blocked]);
  const limit = MENTION_SUGGESTIONS_LIMIT;
  const [first, others] = await Promise.all([
    membersMatching(ctx, q, { among: [...followed], excluded, limit }),
    membersMatching(ctx, q, { excluded, limit }),
  ]);
  const taken = new Set(first.map((u) => u._id));
  const { publicUrl } = ctx.config;
  return [...first, ...others.filter((u) => !taken.has(u._id))].slice(0, limit).map((u) => {
    const { id, name, email, avatarUrl } = toUserInList(u, followed.has(u._id), publicUrl);
    return { id, name, email, avatarUrl, isFollowing: followed.has(u._id) };
  });
}
