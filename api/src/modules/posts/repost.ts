import type { Post as PostView, RepostRequest } from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { badRequest, notFound } from '../../platform/errors';
import { dropBookmarksOfPost } from '../bookmarks/queries';
import { attachMedia } from '../media/attach-media';
import { notifyMentions } from '../mentions/notify-mentions';
import { resolveMentions } from '../mentions/resolve-mentions';
import { notify } from '../notifications/notify';
import { findRepost, recordRepost, withdrawRepost } from '../reposts/repost-records';
import { postsOf } from './model';
import { postPolicy } from './policy';
import { postCreated } from './post-events';
import { presentPosts } from './presenters';
import { postForWriteBy } from './screen';
import { findVisiblePost, POST_NOT_FOUND } from './queries';

export const NOT_REPOSTED = 'You have not reposted this post';
export const IMAGES_NEED_A_COMMENT = 'Add a comment to quote a post with images';
export const QUOTED_REPOST = 'Your repost of this post has a quote: delete it as a post';

/**
 * Reposts a post, with an optional quote. A user reposts a post at most once (409 after that,
 * until they delete their repost); a repost cannot itself be reposted (400). The repost record,
 * the repost post and the original's count are written in one transaction.
 */
export async function repost(
  ctx: AppContext,
  actor: AuthUser,
  id: number,
  input: RepostRequest,
): Promise<PostView> {
  const original = await findVisiblePost(ctx, id);
  // A member blocked either way: the post reads as unavailable (404).
  await postForWriteBy(ctx, id, actor.id);
  if (!postPolicy.canRepost(original)) throw badRequest('A repost cannot be reposted');
  const comment = input.comment ? input.comment : null;
  // Pictures make a quote: a plain repost (undone with the Repost button) has none.
  if (input.images?.length && comment === null) throw badRequest(IMAGES_NEED_A_COMMENT);
  // Mentions live in the quote's comment: a plain repost has none.
  const mentions =
    comment === null ? [] : await resolveMentions(ctx, actor.id, comment, input.mentions);
  const created = await ctx.transaction(async () => {
    // The count first: the document concurrent reposts contend for (likes/toggle-like.ts).
    await postsOf(ctx).updateOne({ _id: id }, { $inc: { repostsCount: 1 } });
    const repostPostId = await ctx.ids.nextId('posts');
    await recordRepost(ctx, actor.id, id, repostPostId); // a second repost: 409, all rolled back
    const images = await attachMedia(ctx, actor.id, repostPostId, input.images ?? []);
    const doc = (
      await postsOf(ctx).create({
        _id: repostPostId,
        authorId: actor.id,
        content: '',
        originalPostId: id,
        repostComment: comment,
        ...(images.length > 0 ? { images } : {}),
        ...(mentions.length > 0 ? { mentions } : {}),
      })
    ).toObject();
    ctx.publish(postCreated(doc, original.authorId), {
      type: 'post.reposted',
      postId: id,
      userId: actor.id,
      repostPostId,
    });
    if (original.authorId !== actor.id) {
      await notify(ctx, 'repost', original.authorId, { actorId: actor.id, postId: id });
    }
    await notifyMentions(ctx, {
      writerId: actor.id,
      postId: repostPostId,
      commentId: null,
      mentions,
      shownWith: [original.authorId],
    });
    return doc;
  }, `posts:${id}`);
  const [view] = await presentPosts(ctx, [created], actor.id);
  return view!;
}

/**
 * Undoes the actor's plain (unquoted) repost of post `id`: the repost post is deleted (soft, as
 * `deletePost`), the repost record removed and the original's count moved back, in one
 * transaction. 404 when the post does not exist, when the actor has not reposted it, or when
 * their repost has a quote (a post of its own, deleted as one). Answers the original's count.
 */
export async function undoRepost(
  ctx: AppContext,
  actor: AuthUser,
  id: number,
): Promise<{ postId: number; repostPostId: number; reposted: false; repostsCount: number }> {
  if (!(await postsOf(ctx).exists({ _id: id }))) throw notFound(POST_NOT_FOUND);
  return ctx.transaction(async () => {
    // The count first: the document concurrent reposts contend for (likes/toggle-like.ts); a
    // refusal below rolls it back.
    const after = await postsOf(ctx)
      .findOneAndUpdate(
        { _id: id },
        { $inc: { repostsCount: -1 } },
        { returnDocument: 'after', projection: { repostsCount: 1 } },
      )
      .lean();
    const record = await findRepost(ctx, actor.id, id);
    const carrier = record
      ? await postsOf(ctx)
          .findOne({ _id: record.repostPostId, deletedAt: null }, { repostComment: 1 })
          .lean()
      : null;
    if (!record || !carrier) throw notFound(NOT_REPOSTED);
    if (carrier.repostComment !== null) throw notFound(QUOTED_REPOST);
    await postsOf(ctx).updateOne({ _id: carrier._id }, { $set: { deletedAt: new Date() } });
    await withdrawRepost(ctx, carrier._id);
    await dropBookmarksOfPost(ctx, carrier._id);
    ctx.publish(
      { type: 'post.deleted', postId: carrier._id, authorId: actor.id },
      { type: 'post.unreposted', postId: id, userId: actor.id, repostPostId: carrier._id },
    );
    return {
      postId: id,
      repostPostId: carrier._id,
      reposted: false as const,
      repostsCount: after?.repostsCount ?? 0,
    };
  }, `posts:${id}`);
}
