import type { Post as PostView } from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthorCache, AuthorDoc } from '../users/author-cache';
import { toPostImages } from '../media/present';
import { presentMentions } from '../mentions/stored';
import { toAuthor } from '../users/presenters';
import type { FeedCache } from './feed-cache';
import type { PostDoc } from './model';
import { postPolicy } from './policy';

/** What presenting posts reads: the base of absolute avatar URLs and the app's read caches. */
interface PostReads {
  publicUrl: string;
  feed: FeedCache;
  authors: AuthorCache;
}

const readsOf = (ctx: AppContext): PostReads => ({
  publicUrl: ctx.config.publicUrl,
  feed: ctx.caches.feed,
  authors: ctx.caches.authors,
});

/**
 * What presenting a page of posts reads: originals of reposts, the viewer's flags and authors.
 * The flags are asked for the originals named by the page (`originalPostId`) together with the
 * page's posts, at the same time as the originals themselves: one wait instead of two.
 */
async function readsFor(posts: PostDoc[], viewerId: number, reads: PostReads) {
  const { feed } = reads;
  const originalIds = posts.flatMap((p) => (p.originalPostId ? [p.originalPostId] : []));
  const [originals, { liked, reposted, bookmarked }] = await Promise.all([
    originalIds.length
      ? feed.postsById(originalIds).then((found) =>
          [...found.values()].filter(
            // A deleted original, or one of a suspended author, shows as deleted.
            (p) => p.deletedAt === null && p.authorSuspended !== true,
          ),
        )
      : [],
    feed.viewerFlags(viewerId, [...posts.map((p) => p._id), ...originalIds], posts),
  ]);
  const originalsById = new Map(originals.map((p) => [p._id, p]));
  const authors = await reads.authors.byId([...posts, ...originals].map((p) => p.authorId));
  return { originalsById, authors, liked, reposted, bookmarked };
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
    // Only once edited: most posts never are.
    ...(p.editedAt ? { editedAt: p.editedAt.toISOString() } : {}),
    // Only with pictures.
    ...(p.images?.length ? { images: toPostImages(p.images, publicUrl) } : {}),
    // Only with mentions (issue 40).
    ...(p.mentions?.length ? { mentions: presentMentions(p.mentions) } : {}),
  };
}

/**
 * Turns stored posts into the client's Post shape in a fixed number of database round trips,
 * whatever the number of posts, and often none (the app's FeedCache and AuthorCache): originals
 * of reposts, the viewer's likes and the viewer's reposts (3, in parallel), then authors.
 * A repost whose original was deleted keeps `originalPostId` and has `originalPost: null`.
 */
export async function presentPosts(
  ctx: AppContext,
  posts: PostDoc[],
  viewerId: number,
): Promise<PostView[]> {
  const reads = readsOf(ctx);
  const { publicUrl } = reads;
  if (posts.length === 0) return [];
  const { originalsById, authors, liked, reposted, bookmarked } = await readsFor(
    posts,
    viewerId,
    reads,
  );
  const present = (p: PostDoc) => ({
    ...sharedFields(p, authors.get(p.authorId), publicUrl),
    isLiked: liked.has(p._id),
    isReposted: reposted.has(p._id),
    canDelete: postPolicy.canDelete({ id: viewerId }, p),
    // Private to the viewer (issue 40): no count anywhere.
    isBookmarked: bookmarked.has(p._id),
  });
  return posts.map((p) => {
    const original = p.originalPostId ? originalsById.get(p.originalPostId) : undefined;
    return { ...present(p), originalPost: original ? present(original) : null };
  });
}

/**
 * A post its viewer has just written (`POST /api/posts`): it quotes nothing and nobody has liked
 * or reposted it yet, so only its author is read (the author cache), not the viewer's flags.
 */
export async function presentNewPost(
  ctx: AppContext,
  post: PostDoc,
  viewerId: number,
): Promise<PostView> {
  const authors = await ctx.caches.authors.byId([post.authorId]);
  return {
    ...sharedFields(post, authors.get(post.authorId), ctx.config.publicUrl),
    isLiked: false,
    isReposted: false,
    canDelete: postPolicy.canDelete({ id: viewerId }, post),
    isBookmarked: false,
    originalPost: null,
  };
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
 * A page's JSON with the viewer's flags left out: the bytes between the flags (`pieces`, one more
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
  pieces: Buffer[];
  slots: FlagSlot[];
  /**
   * Whole bodies by the viewer's flags (`flagsKey`): viewers with the same flags on the page (most
   * have none) get the same bytes, written as they are.
   */
  bodies: Map<string, Buffer>;
}

/** Bodies kept per page (different sets of flags): past this many, the oldest goes. */
const BODIES_PER_PAGE = 8;

/**
 * Each cached page's JSON, by the page's id list (the feed cache's own array, the same object
 * while the page is cached): a page answered again costs its viewer's flags and a lookup.
 */
const pagesJson = new WeakMap<readonly number[], PageJson>();

/**
 * The 16 possible flag texts, by `flagsCode` (isLiked 4, isReposted 2, canDelete 1,
 * isBookmarked 8), in `presentPosts`' order.
 */
const FLAG_TEXTS = Array.from({ length: 16 }, (_, code) =>
  Buffer.from(
    `"isLiked":${(code & 4) !== 0},"isReposted":${(code & 2) !== 0},"canDelete":${(code & 1) !== 0},"isBookmarked":${(code & 8) !== 0}`,
  ),
);

/** The viewer's flags of a page's posts. */
interface PageFlags {
  liked: Set<number>;
  reposted: Set<number>;
  bookmarked: Set<number>;
}

function flagsCode(slot: FlagSlot, viewerId: number, { liked, reposted, bookmarked }: PageFlags) {
  return (
    (bookmarked.has(slot.id) ? 8 : 0) |
    (liked.has(slot.id) ? 4 : 0) |
    (reposted.has(slot.id) ? 2 : 0) |
    (postPolicy.canDelete({ id: viewerId }, slot) ? 1 : 0)
  );
}

/** Whether the page's JSON was made from the posts, originals and authors the caches hold now. */
function stillHolds(page: PageJson, posts: PostDoc[], reads: PostReads): boolean {
  if (page.publicUrl !== reads.publicUrl || page.posts.length !== posts.length) return false;
  if (page.posts !== posts) {
    for (let i = 0; i < posts.length; i++) if (page.posts[i] !== posts[i]) return false;
  }
  for (let i = 0; i < posts.length; i++) {
    const id = posts[i]!.originalPostId;
    if (id && reads.feed.cachedPost(id) !== page.originals[i]) return false;
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
  const pieces: Buffer[] = [];
  const slots: FlagSlot[] = [];
  const usedAuthors = new Map<number, AuthorDoc | undefined>();
  let text = '[';
  const present = (p: PostDoc) => {
    const author = authors.get(p.authorId);
    usedAuthors.set(p.authorId, author);
    text += `{${sharedFieldsJson(p, author, publicUrl)},`;
    pieces.push(Buffer.from(text));
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
  pieces.push(Buffer.from(`${text}]`));
  return {
    posts,
    originals,
    authors: usedAuthors,
    publicUrl,
    targetIds,
    pieces,
    slots,
    bodies: new Map(),
  };
}

/** Whether every original the page shows was in the cache when it was made (else: not kept). */
function reusable(page: PageJson): boolean {
  return page.posts.every((p, i) => !p.originalPostId || page.originals[i] !== undefined);
}

const EMPTY_PAGE = Buffer.from('[]');

/**
 * `presentPosts` as the bytes of the JSON the client receives, built from each post's
 * viewer-independent JSON (made once per cached post) with only the viewer's flags added: a cached
 * feed page costs no presenting or serializing of its posts again. `page`: the cached page's id
 * list; the page's JSON is kept with it (and its whole bodies, by the viewer's flags), while the
 * posts, their originals and authors the caches hold are the ones it was made from.
 */
export async function presentPostsJson(
  ctx: AppContext,
  posts: PostDoc[],
  viewerId: number,
  page?: readonly number[],
): Promise<Buffer> {
  if (posts.length === 0) return EMPTY_PAGE;
  const reads = readsOf(ctx);
  let json = page && pagesJson.get(page);
  if (!json || !stillHolds(json, posts, reads)) {
    const found = await readsFor(posts, viewerId, reads);
    json = buildPageJson(posts, reads, found);
    if (page && reusable(json)) pagesJson.set(page, json);
    return body(json, viewerId, found);
  }
  return body(json, viewerId, await reads.feed.viewerFlags(viewerId, json.targetIds, posts));
}

/** The page's bytes with the viewer's flags: kept by those flags, joined once for each. */
function body(page: PageJson, viewerId: number, flags: PageFlags) {
  const { pieces, slots, bodies } = page;
  const codes = slots.map((slot) => flagsCode(slot, viewerId, flags));
  const key = String.fromCharCode(...codes.map((c) => 48 + c));
  const kept = bodies.get(key);
  if (kept) return kept;
  const parts: Buffer[] = [pieces[0]!];
  for (let i = 0; i < slots.length; i++) parts.push(FLAG_TEXTS[codes[i]!]!, pieces[i + 1]!);
  const joined = Buffer.concat(parts);
  if (bodies.size >= BODIES_PER_PAGE) bodies.delete(bodies.keys().next().value!);
  bodies.set(key, joined);
  return joined;
}
