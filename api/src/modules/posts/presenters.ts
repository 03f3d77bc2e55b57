import type { Post as PostView } from '@campus/contracts';
import type { AuthorCache, AuthorDoc } from '../users/author-cache';
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

/** What presenting a page of posts reads: originals of reposts, authors and the viewer's flags. */
async function readsFor(posts: PostDoc[], viewerId: number, reads: PostReads) {
  const { feed } = reads;
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
  return { originalsById, authors, liked, reposted };
}

/** The viewer-independent fields of a post as the client sees them. */
function sharedFields(p: PostDoc, author: AuthorDoc | undefined, publicUrl: string) {
  return {
    id: p._id,
    content: p.content,
    createdAt: p.createdAt.toISOString(),
    isJdTagged: p.isJdTagged,
    likesCount: p.likesCount,
    repostsCount: p.repostsCount,
    commentsCount: p.commentsCount,
    author: toAuthor(p.authorId, author, publicUrl),
    originalPostId: p.originalPostId ?? null,
    repostComment: p.repostComment ?? null,
    sharedCommentId: p.sharedCommentId ?? null,
  };
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
  const { publicUrl } = reads;
  if (posts.length === 0) return [];
  const { originalsById, authors, liked, reposted } = await readsFor(posts, viewerId, reads);
  const present = (p: PostDoc) => ({
    ...sharedFields(p, authors.get(p.authorId), publicUrl),
    isLiked: liked.has(p._id),
    isReposted: reposted.has(p._id),
    canDelete: postPolicy.canDelete({ id: viewerId }, p),
  });
  return posts.map((p) => {
    const original = p.originalPostId ? originalsById.get(p.originalPostId) : undefined;
    return { ...present(p), originalPost: original ? present(original) : null };
  });
}

/**
 * Each stored post's viewer-independent JSON, kept while the cached post and its author's cached
 * record are the same objects (the caches replace them, never change them, on every write).
 */
const sharedJson = new WeakMap<
  PostDoc,
  { author: AuthorDoc | undefined; publicUrl: string; json: string }
>();

function sharedFieldsJson(p: PostDoc, author: AuthorDoc | undefined, publicUrl: string): string {
  const kept = sharedJson.get(p);
  if (kept && kept.author === author && kept.publicUrl === publicUrl) return kept.json;
  const json = JSON.stringify(sharedFields(p, author, publicUrl)).slice(1, -1);
  sharedJson.set(p, { author, publicUrl, json });
  return json;
}

/**
 * `presentPosts` as the JSON the client receives, built from each post's viewer-independent JSON
 * (made once per cached post) with only the viewer's flags added: a cached feed page costs no
 * presenting or serializing of its posts again.
 */
export async function presentPostsJson(
  posts: PostDoc[],
  viewerId: number,
  reads: PostReads,
): Promise<string> {
  const { publicUrl } = reads;
  if (posts.length === 0) return '[]';
  const { originalsById, authors, liked, reposted } = await readsFor(posts, viewerId, reads);
  const present = (p: PostDoc) =>
    `{${sharedFieldsJson(p, authors.get(p.authorId), publicUrl)},"isLiked":${liked.has(p._id)},"isReposted":${reposted.has(p._id)},"canDelete":${postPolicy.canDelete({ id: viewerId }, p)}`;
  const parts = posts.map((p) => {
    const original = p.originalPostId ? originalsById.get(p.originalPostId) : undefined;
    return `${present(p)},"originalPost":${original ? `${present(original)}}` : 'null'}}`;
  });
  return `[${parts.join(',')}]`;
}
