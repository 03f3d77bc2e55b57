/**
 * The Bookmarks page (issue 40): the member's bookmarked posts, the newest bookmark first, a page
 * at a time after a cursor. Screened as the feed is: deleted or removed posts, suspended
 * authors' and those of members blocked either way or muted (and reposts of theirs) are left
 * out; posts with a muted word are marked with it.
 */
import { DISCOVERY_PAGE_SIZE, type PostPage } from '@campus/contracts';
import { trusted } from 'mongoose';
import type { AppContext } from '../../context';
import { badRequest } from '../../platform/errors';
import { presentPosts } from '../posts/presenters';
import { screenPosts } from '../posts/screen';
import { viewerSafety } from '../safety/relations';
import { bookmarksOf, type BookmarkDoc } from './model';

export const BAD_CURSOR = 'The cursor must be a nextCursor from a page before';

/** Bookmarks read at a time while a page fills... */
const SCAN_BATCH = 50;
/** ...and at most this many rounds per page: a page of mostly hidden posts ends early, its cursor exact. */
const SCAN_ROUNDS = 4;

/** A stored post as the posts module hands it (its model is its own). */
type StoredPost = Parameters<typeof presentPosts>[1][number];

interface BookmarkCursor {
  createdAt: Date;
  id: number;
}

function encodeCursor(b: Pick<BookmarkDoc, 'createdAt' | '_id'>): string {
  return `${b.createdAt.getTime()}.${b._id}`;
}

/** The cursor a page answered, or a 400. */
export function decodeBookmarkCursor(text: string): BookmarkCursor {
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(text);
  const createdAt = new Date(Number(match?.[1]));
  if (!match || Number.isNaN(createdAt.getTime())) throw badRequest(BAD_CURSOR);
  return { createdAt, id: Number(match[2]) };
}

/** The member's bookmarks after `after`, newest first, in index order. */
function bookmarksAfter(
  ctx: AppContext,
  userId: number,
  after: BookmarkCursor | undefined,
  limit: number,
) {
  return bookmarksOf(ctx)
    .find({
      userId,
      ...(after
        ? {
            // The range lets the index start at the cursor; the $or makes it exact.
            createdAt: trusted({ $lte: after.createdAt }),
            $or: [
              { createdAt: trusted({ $lt: after.createdAt }) },
              { createdAt: after.createdAt, _id: trusted({ $lt: after.id }) },
            ],
          }
        : {}),
    })
    .sort({ createdAt: -1, _id: -1 })
    .limit(limit)
    .lean<BookmarkDoc[]>();
}

export async function listBookmarks(
  ctx: AppContext,
  viewerId: number,
  cursor: string | undefined,
): Promise<PostPage> {
  let after = cursor === undefined ? undefined : decodeBookmarkCursor(cursor);
  const safety = await viewerSafety(ctx, viewerId);
  const page: StoredPost[] = [];
  const muted = new Map<number, string>();
  let nextCursor: string | null = null;
  for (let round = 0; round < SCAN_ROUNDS; round++) {
    const batch = await bookmarksAfter(ctx, viewerId, after, SCAN_BATCH);
    const found = await ctx.caches.feed.postsById(batch.map((b) => b.postId));
    const standing = batch.flatMap((b) => {
      const post = found.get(b.postId);
      return post && post.deletedAt === null && post.authorSuspended !== true ? [post] : [];
    });
    const screened = await screenPosts(ctx, safety, standing);
    const kept = new Set(screened.kept.map((p) => p._id));
    for (const [id, word] of screened.muted) muted.set(id, word);
    let consumed: BookmarkDoc | undefined;
    for (const b of batch) {
      if (page.length === DISCOVERY_PAGE_SIZE) break;
      consumed = b;
      if (kept.has(b.postId)) page.push(found.get(b.postId)!);
    }
    const readAll = batch.length < SCAN_BATCH && consumed === batch.at(-1);
    // Nothing after the last bookmark consumed: the last page. Else the next page starts after
    // it (a page of mostly hidden posts may end early, after SCAN_ROUNDS rounds).
    nextCursor = readAll || !consumed ? null : encodeCursor(consumed);
    if (nextCursor === null || page.length === DISCOVERY_PAGE_SIZE) break;
    after = { createdAt: consumed!.createdAt, id: consumed!._id };
  }
  const views = await presentPosts(ctx, page, viewerId);
  return {
    posts: muted.size
      ? views.map((v) => (muted.has(v.id) ? { ...v, mutedWord: muted.get(v.id)! } : v))
      : views,
    nextCursor,
  };
}
