import { DISCOVERY_PAGE_SIZE, type TagPage } from '@campus/contracts';
import type { AppContext } from '../../context';
import { hiddenAuthors, presentScreenedPosts } from '../posts/discovery-page';
import { tagPagePosts, tagPostsCount } from '../posts/discovery-queries';
import { viewerSafety } from '../safety/relations';
import { decodeTimeCursor, encodeTimeCursor } from './cursor';
import { followsTag } from './queries';

/**
 * A tag's page (`GET /api/tags/:tag`, `tag` normalized by the contract): its visible posts,
 * newest first, a page after `cursor`, with how many posts carry it and whether the caller
 * follows it. Posts of members the caller blocked, was blocked by or muted are not listed nor
 * counted. A tag no post carries is an empty page.
 */
export async function tagPage(
  ctx: AppContext,
  viewerId: number,
  tag: string,
  cursor: string | undefined,
): Promise<TagPage> {
  const after = cursor === undefined ? undefined : decodeTimeCursor(cursor);
  const safety = await viewerSafety(ctx, viewerId);
  const hidden = hiddenAuthors(safety);
  const [docs, postsCount, isFollowed] = await Promise.all([
    tagPagePosts(ctx, tag, hidden, after, DISCOVERY_PAGE_SIZE + 1),
    tagPostsCount(ctx, tag, hidden),
    followsTag(ctx, viewerId, tag),
  ]);
  const more = docs.length > DISCOVERY_PAGE_SIZE;
  const page = docs.slice(0, DISCOVERY_PAGE_SIZE);
  const posts = await presentScreenedPosts(ctx, viewerId, safety, page);
  return {
    tag,
    postsCount,
    isFollowed,
    posts,
    nextCursor: more ? encodeTimeCursor(page[page.length - 1]!) : null,
  };
}
