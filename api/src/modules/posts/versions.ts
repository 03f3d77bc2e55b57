import type { ContentVersionList } from '@campus/contracts';
import type { AppContext } from '../../context';
import { notFound } from '../../platform/errors';
import { findLiveComment } from '../comments/own-comments';
import { COMMENT_NOT_FOUND } from '../comments/queries';
import { listVersions } from '../versions/versions';
import { findVisiblePost, isPostVisible } from './queries';

/** Every version of a visible post's text (a quote's comment), newest first. */
export async function postVersions(ctx: AppContext, id: number): Promise<ContentVersionList> {
  const post = await findVisiblePost(ctx, id);
  const content = post.originalPostId === null ? post.content : (post.repostComment ?? '');
  return {
    versions: await listVersions(ctx, 'post', id, {
      content,
      writtenAt: post.editedAt ?? post.createdAt,
    }),
  };
}

/** Every version of a visible comment's text, newest first (none for a "deleted" placeholder). */
export async function commentVersions(ctx: AppContext, id: number): Promise<ContentVersionList> {
  const comment = await findLiveComment(ctx, id);
  if (!comment || !(await isPostVisible(ctx, comment.postId))) throw notFound(COMMENT_NOT_FOUND);
  return {
    versions: await listVersions(ctx, 'comment', id, {
      content: comment.content,
      writtenAt: comment.editedAt ?? comment.createdAt,
    }),
  };
}
