import { DISCOVERY_PAGE_SIZE, type TagPage } from '@campus/contracts';
import type { AppContext } from '../../context';
import { hiddenAuthors, presentScreenedPosts } from '../posts/discovery-page';
import { tagPagePosts, tagPostsCount } from '../posts/discovery-queries';
import { presentPostsJson } from '../posts/presenters';
import { viewerSafety } from '../safety/relations';
import { decodeTimeCursor, encodeTimeCursor } from './cursor';
import { followedTagsOf } from './queries';

/** The last answer made around each kept posts' JSON, with the head it was made with. */
const answers = new WeakMap<Buffer, { head: string; body: Buffer }>();

/**
 * A tag's page (`GET /api/tags/:tag`, `tag` normalized by the contract): its visible posts,
 * newest first, a page after `cursor`, with how many posts carry it and whether the caller
 * follows it. Posts of members the caller blocked, was blocked by or muted are not listed nor
 * counted. A tag no post carries is an empty page. For a viewer who hides nothing, the page, its
 * count and the viewer's followed tags come from the feed cache and the posts' JSON is the
 * feed's (presentPostsJson): answered as bytes, as a cached feed page is.
 */
export async function tagPage(
  ctx: AppContext,
  viewerId: number,
  tag: string,
  cursor: string | undefined,
): Promise<TagPage | Buffer> {
  const after = cursor === undefined ? undefined : decodeTimeCursor(cursor);
  const safety = await viewerSafety(ctx, viewerId);
  const hidden = hiddenAuthors(safety);
  const [read, postsCount, followed] = await Promise.all([
    tagPagePosts(ctx, tag, hidden, after, DISCOVERY_PAGE_SIZE + 1),
    tagPostsCount(ctx, tag, hidden),
    ctx.caches.feed.followedTagsBy(viewerId, () => followedTagsOf(ctx, viewerId)),
  ]);
  const isFollowed = followed.includes(tag);
  const more = read.posts.length > DISCOVERY_PAGE_SIZE;
  const page = read.posts.slice(0, DISCOVERY_PAGE_SIZE);
  const nextCursor = more ? encodeTimeCursor(page[page.length - 1]!) : null;
  if (safety.empty) {
    const posts = await presentPostsJson(ctx, page, viewerId, read.ids);
    const head = `{"tag":${JSON.stringify(tag)},"postsCount":${postsCount},"isFollowed":${isFollowed},"nextCursor":${JSON.stringify(nextCursor)},"posts":`;
    // The posts' JSON is the same Buffer while their page is kept: so is the whole answer.
    const kept = answers.get(posts);
    if (kept?.head === head) return kept.body;
    const body = Buffer.concat([Buffer.from(head), posts, Buffer.from('}')]);
    answers.set(posts, { head, body });
    return body;
  }
  const posts = await presentScreenedPosts(ctx, viewerId, safety, page);
  return { tag, postsCount, isFollowed, posts, nextCursor };
}
