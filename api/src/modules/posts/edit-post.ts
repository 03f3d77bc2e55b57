import { editablePostText, type EditPostRequest, type Post as PostView } from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { badRequest, forbidden, notFound } from '../../platform/errors';
import { keepEarlierVersion } from '../versions/versions';
import { postsOf, type PostDoc } from './model';
import { postPolicy } from './policy';
import { presentPosts } from './presenters';
import { findVisiblePost, POST_NOT_FOUND } from './queries';

/**
 * Its author replaces a post's text (a quote's comment): the earlier text is kept as a version,
 * the post is marked edited, and its counts, likes and reposts stay. Quotes of it show the new
 * text (they read the original as it is). The same text again changes nothing.
 */
export async function editPost(
  ctx: AppContext,
  actor: AuthUser,
  id: number,
  input: EditPostRequest,
): Promise<PostView> {
  const post = await findVisiblePost(ctx, id);
  if (!postPolicy.canEdit(actor, post)) throw forbidden('You can only edit your own posts');
  const editable = editablePostText(post);
  if (!editable) {
    throw badRequest(
      post.sharedCommentId !== null
        ? 'This post shares a comment: edit the comment instead'
        : 'A repost without a comment has no text to edit',
    );
  }
  const content = input.content.trim();
  if (content.length > editable.max) {
    throw badRequest(`Comment must be at most ${editable.max} characters`);
  }
  const current = (post[editable.field] ?? '') as string;
  if (content === current) return (await presentPosts(ctx, [post], actor.id))[0]!;
  const edited = await ctx.transaction(async () => {
    const now = ctx.clock.now();
    // Read inside: a retried attempt keeps the text it replaces, not the one an earlier attempt wrote.
    const stored = await postsOf(ctx)
      .findOne(
        { _id: id, deletedAt: null },
        { content: 1, repostComment: 1, editedAt: 1, createdAt: 1 },
      )
      .lean();
    if (!stored) throw notFound(POST_NOT_FOUND);
    await keepEarlierVersion(ctx, 'post', id, {
      content: (stored[editable.field] ?? '') as string,
      writtenAt: stored.editedAt ?? stored.createdAt,
    });
    const updated = await postsOf(ctx)
      .findOneAndUpdate(
        { _id: id, deletedAt: null },
        { $set: { [editable.field]: content, editedAt: now } },
        { returnDocument: 'after' },
      )
      .lean<PostDoc>();
    if (!updated) throw notFound(POST_NOT_FOUND);
    ctx.publish({ type: 'post.edited', postId: id, authorId: post.authorId });
    return updated;
  });
  return (await presentPosts(ctx, [edited], actor.id))[0]!;
}
