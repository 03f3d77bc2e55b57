import { trusted } from 'mongoose';
import type { Post as PostView, PostAuthor } from '@campus/contracts';
import { toPublicFileUrl } from '../../platform/storage';
import { User } from '../users/model';
import { postsById, viewerFlags } from './feed-cache';
import type { PostDoc } from './model';

export const AUTHOR_FIELDS = { _id: 1, name: 1, email: 1, avatarUrl: 1 } as const;

type AuthorDoc = { _id: number; name: string; email: string; avatarUrl: string | null };

/** An author as posts and comments show it; our own avatar uploads leave as absolute URLs. */
export function toAuthor(id: number, user: AuthorDoc | undefined, publicUrl: string): PostAuthor {
  // Accounts are never deleted, so a missing author means inconsistent data: show it plainly.
  if (!user) return { id, name: 'Unknown user', email: '', avatarUrl: null };
  return {
    id: user._id,
    name: user.name,
    email: user.email,
    avatarUrl: user.avatarUrl ? toPublicFileUrl(user.avatarUrl, publicUrl) : null,
  };
}

/**
 * Authors shown on posts and comments, kept for `ttlMs` in this process: a feed page then often
 * needs no user lookup at all. A profile edit is visible at once through this process (see
 * `forgetAuthor`) and within `ttlMs` through any other.
 */
const authorCache = {
  ttlMs: 10_000,
  entries: new Map<number, { author: AuthorDoc; until: number }>(),
};

export function setAuthorCacheTtl(ms: number): void {
  authorCache.ttlMs = ms;
  authorCache.entries.clear();
}

export function forgetAuthor(id: number): void {
  authorCache.entries.delete(id);
}

export async function authorsById(ids: Iterable<number>): Promise<Map<number, AuthorDoc>> {
  const now = Date.now();
  const found = new Map<number, AuthorDoc>();
  const missing: number[] = [];
  for (const id of new Set(ids)) {
    const hit = authorCache.entries.get(id);
    if (hit && hit.until > now) found.set(id, hit.author);
    else missing.push(id);
  }
  if (missing.length === 0) return found;
  const users = await User.find({ _id: trusted({ $in: missing }) }, AUTHOR_FIELDS).lean<
    AuthorDoc[]
  >();
  if (authorCache.ttlMs > 0 && authorCache.entries.size + users.length > 50_000) {
    for (const [id, entry] of authorCache.entries)
      if (entry.until <= now) authorCache.entries.delete(id);
  }
  for (const u of users) {
    found.set(u._id, u);
    if (authorCache.ttlMs > 0)
      authorCache.entries.set(u._id, { author: u, until: now + authorCache.ttlMs });
  }
  return found;
}

/**
 * Turns stored posts into the client's Post shape in a fixed number of database round trips,
 * whatever the number of posts, and often none (feed-cache.ts): originals of reposts (1), then
 * authors, the viewer's likes and the viewer's reposts (3, in parallel).
 * A repost whose original was deleted keeps `originalPostId` and has `originalPost: null`.
 */
export async function presentPosts(
  posts: PostDoc[],
  viewerId: number,
  publicUrl: string,
): Promise<PostView[]> {
  if (posts.length === 0) return [];
  const originalIds = posts.flatMap((p) => (p.originalPostId ? [p.originalPostId] : []));
  const originals = originalIds.length
    ? [...(await postsById(originalIds)).values()].filter((p) => p.deletedAt === null)
    : [];
  const originalsById = new Map(originals.map((p) => [p._id, p]));
  const targetIds = [...posts.map((p) => p._id), ...originals.map((p) => p._id)];
  const [authors, { liked, reposted }] = await Promise.all([
    authorsById([...posts, ...originals].map((p) => p.authorId)),
    viewerFlags(viewerId, targetIds),
  ]);

  const present = (p: PostDoc) => ({
    id: p._id,
    content: p.content,
    createdAt: p.createdAt.toISOString(),
    isJdTagged: p.isJdTagged,
    likesCount: p.likesCount,
    repostsCount: p.repostsCount,
    commentsCount: p.commentsCount,
    isLiked: liked.has(p._id),
    isReposted: reposted.has(p._id),
    author: toAuthor(p.authorId, authors.get(p.authorId), publicUrl),
    originalPostId: p.originalPostId ?? null,
    repostComment: p.repostComment ?? null,
  });
  return posts.map((p) => {
    const original = p.originalPostId ? originalsById.get(p.originalPostId) : undefined;
    return { ...present(p), originalPost: original ? present(original) : null };
  });
}
