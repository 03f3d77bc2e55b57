/**
 * Posts of a discovery page (search results, a tag's posts: issue 40) as the feed presents
 * them: the viewer's blocks and mutes applied (posts quoting a hidden member's post left out),
 * muted words marked (`mutedWord`), the viewer's flags, through the feed's presenter.
 */
import type { Post as PostView } from '@campus/contracts';
import type { AppContext } from '../../context';
import type { ViewerSafety } from '../safety/relations';
import { withMutedWords } from './feed';
import type { PostDoc } from './model';
import { presentPosts } from './presenters';
import { screenPosts } from './screen';

/** The members whose posts `safety`'s viewer does not see: blocked either way, or muted now. */
export function hiddenAuthors(safety: ViewerSafety): number[] {
  if (safety.empty) return [];
  const ids = new Set(safety.record.blocked);
  for (const id of safety.record.mutes.keys()) if (safety.mutes(id)) ids.add(id);
  return [...ids];
}

/** `posts` screened for the viewer and presented as the feed presents them. */
export async function presentScreenedPosts(
  ctx: AppContext,
  viewerId: number,
  safety: ViewerSafety,
  posts: PostDoc[],
): Promise<PostView[]> {
  const { kept, muted } = await screenPosts(ctx, safety, posts);
  return withMutedWords(await presentPosts(ctx, kept, viewerId), muted);
}
