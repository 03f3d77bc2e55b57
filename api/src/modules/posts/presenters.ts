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

/** Where a viewer's flags go in a page's JSON: the post, and its author (for `canDelete`). */
interface FlagSlot {
  id: number;
  authorId: number;
}

/**
 * A page's JSON with the viewer's flags left out: the text between the flags (`pieces`, one more
 * than `slots`), and what it was made from, to tell whether it still holds.
 */
interface PageJson {
  posts: PostDoc[];
  /** Per post, the cached original it quotes as it was read (null: none, or not visible). */
  originals: Array<PostDoc | null | undefined>;
  authors: Map<number, AuthorDoc | undefined>;
  publicUrl: string;
  /** The posts and visible originals: whose flags the viewer needs. */
  targetIds: number[];
  pieces: string[];
  slots: FlagSlot[];
}

/**
 * Each cached page's JSON, by the page's id list (the feed cache's own array, the same object
 * while the page is cached): a page answered again costs its viewer's flags and a join.
 */
const pagesJson = new WeakMap<readonly number[], PageJson>();

function flagsJson(slot: FlagSlot, viewerId: number, liked: Set<number>, reposted: Set<number>) {
  return `"isLiked":${liked.has(slot.id)},"isReposted":${reposted.has(slot.id)},"canDelete":${postPolicy.canDelete({ id: viewerId }, slot)}`;
}

/** Whether the page's JSON was made from the posts, originals and authors the caches hold now. */
function stillHolds(page: PageJson, posts: PostDoc[], reads: PostReads): boolean {
  if (page.publicUrl !== reads.publicUrl || page.posts.length !== posts.length) return false;
  for (let i = 0; i < posts.length; i++) {
    const p = posts[i]!;
    if (page.posts[i] !== p) return false;
    if (p.originalPostId && reads.feed.cachedPost(p.originalPostId) !== page.originals[i])
      return false;
  }
  for (const [id, author] of page.authors) if (reads.authors.cached(id) !== author) return false;
  return true;
}

function buildPageJson(
  posts: PostDoc[],
  reads: PostReads,
  {
    originalsById,
    authors,
  }: Pick<Awaited<ReturnType<typeof readsFor>>, 'originalsById' | 'authors'>,
): PageJson {
  const { publicUrl } = reads;
  const pieces: string[] = [];
  const slots: FlagSlot[] = [];
  const usedAuthors = new Map<number, AuthorDoc | undefined>();
  let text = '[';
  const present = (p: PostDoc) => {
    const author = authors.get(p.authorId);
    usedAuthors.set(p.authorId, author);
    text += `{${sharedFieldsJson(p, author, publicUrl)},`;
    pieces.push(text);
    slots.push({ id: p._id, authorId: p.authorId });
    text = '';
  };
  const originals: PageJson['originals'] = [];
  const targetIds = posts.map((p) => p._id);
  posts.forEach((p, i) => {
    if (i > 0) text += ',';
    present(p);
    const original = p.originalPostId ? originalsById.get(p.originalPostId) : undefined;
    // What the cache holds for the original (a deleted one too), to tell later if it changed.
    originals.push(p.originalPostId ? reads.feed.cachedPost(p.originalPostId) : undefined);
    text += ',"originalPost":';
    if (original) {
      targetIds.push(original._id);
      present(original);
      text += '}}';
    } else {
      text += 'null}';
    }
  });
  pieces.push(`${text}]`);
  return { posts, originals, authors: usedAuthors, publicUrl, targetIds, pieces, slots };
}

/** Whether every original the page shows was in the cache when it was made (else: not kept). */
function reusable(page: PageJson): boolean {
  return page.posts.every((p, i) => !p.originalPostId || page.originals[i] !== undefined);
}

/**
 * `presentPosts` as the JSON the client receives, built from each post's viewer-independent JSON
 * (made once per cached post) with only the viewer's flags added: a cached feed page costs no
 * presenting or serializing of its posts again. `page`: the cached page's id list; the page's
 * whole JSON is kept with it and only the viewer's flags are spliced in, while the posts, their
 * originals and authors the caches hold are the ones it was made from.
 */
export async function presentPostsJson(
  posts: PostDoc[],
  viewerId: number,
  reads: PostReads,
  page?: readonly number[],
): Promise<string> {
  if (posts.length === 0) return '[]';
  let json = page && pagesJson.get(page);
  if (!json || !stillHolds(json, posts, reads)) {
    const found = await readsFor(posts, viewerId, reads);
    json = buildPageJson(posts, reads, found);
    if (page && reusable(json)) pagesJson.set(page, json);
    return join(json, viewerId, found.liked, found.reposted);
  }
  const { liked, reposted } = await reads.feed.viewerFlags(viewerId, json.targetIds);
  return join(json, viewerId, liked, reposted);
}

function join(page: PageJson, viewerId: number, liked: Set<number>, reposted: Set<number>) {
  const { pieces, slots } = page;
  let out = pieces[0]!;
  for (let i = 0; i < slots.length; i++) {
    out += flagsJson(slots[i]!, viewerId, liked, reposted) + pieces[i + 1]!;
  }
  return out;
}
