/**
 * Posts as a viewer's blocks, mutes and muted words leave them (issue 38, modules/safety): a
 * post by a member blocked either way or muted is left out, and so is a repost or quote of one;
 * a post that contains a muted word or phrase (or quotes one that does) stays, marked with it,
 * for the client to show collapsed.
 */
import type { AppContext } from '../../context';
import { notFound } from '../../platform/errors';
import { foldText } from '../safety/muted-words-match';
import { blockedEitherWay, type ViewerSafety } from '../safety/relations';
import type { PostDoc } from './model';
import { POST_NOT_FOUND, visiblePostForWrite } from './queries';

/**
 * Each cached post's text as muted words are matched against it. A cached post never changes:
 * an edit (`post.edited`) makes the feed cache forget it, and the post read again is a new object.
 */
const foldedTexts = new WeakMap<PostDoc, string>();

export function foldedText(p: PostDoc): string {
  let folded = foldedTexts.get(p);
  if (folded === undefined) {
    folded = foldText(`${p.content}\n${p.repostComment ?? ''}`);
    foldedTexts.set(p, folded);
  }
  return folded;
}

export interface Screened {
  kept: PostDoc[];
  /** Post id → the muted phrase it (or the post it quotes) contains. */
  muted: Map<number, string>;
  /** How many were left out. */
  hidden: number;
  /** The originals of the reposts and quotes, as the feed cache held them when screened. */
  originals: Map<number, PostDoc>;
}

/** `posts` screened by what the viewer hides; the originals of reposts come from the feed cache. */
export async function screenPosts(
  ctx: AppContext,
  safety: ViewerSafety,
  posts: PostDoc[],
  { hideMuted = true }: { hideMuted?: boolean } = {},
): Promise<Screened> {
  const muted = new Map<number, string>();
  if (safety.empty || posts.length === 0) {
    return { kept: posts, muted, hidden: 0, originals: new Map() };
  }
  const originalIds = posts.flatMap((p) => (p.originalPostId ? [p.originalPostId] : []));
  const originals = originalIds.length ? await ctx.caches.feed.postsById(originalIds) : new Map();
  const hides = (authorId: number) =>
    hideMuted ? safety.hides(authorId) : safety.blocks(authorId);
  const words = safety.words;
  const kept = posts.filter((p) => {
    if (hides(p.authorId)) return false;
    const original = p.originalPostId ? originals.get(p.originalPostId) : undefined;
    if (original && hides(original.authorId)) return false;
    if (!words.empty) {
      const found = words.find(foldedText(p)) ?? (original && words.find(foldedText(original)));
      if (found) muted.set(p._id, found);
    }
    return true;
  });
  return { kept, muted, hidden: posts.length - kept.length, originals };
}

/**
 * A visible post `actorId` may act on (like, comment, repost, quote), or 404: not when its
 * author and the actor are blocked either way (the post reads as unavailable to them), nor
 * a repost of such a member's post.
 */
export async function postForWriteBy(
  ctx: AppContext,
  id: number,
  actorId: number,
): Promise<PostDoc> {
  const post = await visiblePostForWrite(ctx, id);
  const authors = new Set([post.authorId]);
  if (post.originalPostId) {
    const original = (await ctx.caches.feed.postsById([post.originalPostId])).get(
      post.originalPostId,
    );
    if (original) authors.add(original.authorId);
  }
  for (const authorId of authors)
    if (await blockedEitherWay(ctx, actorId, authorId)) throw notFound(POST_NOT_FOUND);
  return post;
}
