/**
 * Issue 40: posts stored before tags existed get their tags (tag pages, Trending today and the
 * Following tab's followed tags read `posts.tags`). Once, before the API listens, rather than a
 * scan of every post at every start. Safe to run again: it reads only posts without `tags`.
 */
import { backfillPostTags } from '../modules/posts/post-tags';
import type { MigrationContext } from './run';

export async function up({ models, logger }: MigrationContext): Promise<void> {
  const posts = await backfillPostTags(models.Post);
  if (posts > 0) logger.info({ posts }, 'tags filled in for posts stored before tags');
}
