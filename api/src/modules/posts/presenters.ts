import type { Post as PostView } from '@campus/contracts';
import type { AuthorCache } from '../users/author-cache';
import { toAuthor } from '../users/presenters';
import type { FeedCache } from './feed-cache';
import type { PostDoc } from './model';
import { postPolicy } from './policy';

/** What presenting posts needs: the base of absolute avatar URLs and the app's read caches. */
export interface PostReads {
  publicUrl: string;
  feed: FeedCache;
  authors: AuthorCache;
}

/**
 * Turns stored posts into the client's Post shape in a fixed number of database round trips,
 * whatever the number of posts, and often none (the app's FeedCache and AuthorCache): originals of reposts (1), then
 * authors, the viewer's likes and the viewer's reposts (3, in parallel).
 * A repost whose original was deleted keeps `originalPostId` and has `originalPost: null`.
 */
export async function presentPosts(
  posts: PostDoc[],
  viewerId: number,
  reads: PostReads,
): Promise<PostView[]> {
  const { feed, publicUrl } = reads;
  if (posts.length === 0) return [];
  const originalIds = posts.flatMap((p) => (p.originalPostId ? [p.originalPostId] : []));
  const originals = originalIds.length
    ? [...(await feed.postsById(originalIds)).values()].filter(
        // A deleted original, or one of a suspended author, shows as deleted.
        (p) => p.deletedAt === null && p.authorSuspended !== true,
      )
    : [];
  const originalsById = new Map(originals.map((p) => [p._id, p]));
  const targetIds = [...posts.map((p) => p._id), ...originals.map((p) => p._id)];
  const [authors, { liked, reposted }] = await Promise.all([
    reads.authors.byId([...posts, ...originals].map((p) => p.authorId)),
    feed.viewerFlags(viewerId, targetIds),
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
    canDelete: postPolicy.canDelete({ id: viewerId }, p),
    author: toAuthor(p.authorId, authors.get(p.authorId), publicUrl),
    originalPostId: p.originalPostId ?? null,
    repostComment: p.repostComment ?? null,
    sharedCommentId: p.sharedCommentId ?? null,
  });
  return posts.map((p) => {
    const original = p.originalPostId ? originalsById.get(p.originalPostId) : undefined;
    return { ...present(p), originalPost: original ? present(original) : null };
  });
}
