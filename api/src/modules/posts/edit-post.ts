import { editablePostText, type EditPostRequest, type Post as PostView } from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { badRequest, forbidden, notFound } from '../../platform/errors';
import { notifyMentions } from '../mentions/notify-mentions';
import { resolveMentions, sameMentions } from '../mentions/resolve-mentions';
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
  // The mentions of the new text (modules/mentions): those picked, or the earlier ones still there.
  const mentions = await resolveMentions(ctx, actor.id, content, input.mentions, {
    text: current,
    mentions: post.mentions,
  });
  if (content === current && sameMentions(mentions, post.mentions))
    return (await presentPosts(ctx, [post], actor.id))[0]!;
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
    const earlier = (stored[editable.field] ?? '') as string;
    // A new text is an edit, with a version; the same text with mentions picked again is not.
    const newText = earlier !== content;
    if (newText) {
      await keepEarlierVersion(ctx, 'post', id, {
        content: earlier,
        writtenAt: stored.editedAt ?? stored.createdAt,
      });
    }
    const text = newText ? { [editable.field]: content, editedAt: now } : {};
    const updated = await postsOf(ctx)
      .findOneAndUpdate(
        { _id: id, deletedAt: null },
        mentions.length
          ? { $set: { ...text, mentions } }
          : { ...(newText ? { $set: text } : {}), $unset: { mentions: 1 } },
        { returnDocument: 'after' },
      )
      .lean<PostDoc>();
    if (!updated) throw notFound(POST_NOT_FOUND);
    ctx.publish({ type: 'post.edited', postId: id, authorId: post.authorId });
    // Only members not notified for this post before (the registry's key).
    await notifyMentions(ctx, {
      writerId: actor.id,
      postId: id,
      commentId: null,
      mentions,
      shownWith: [await originalAuthorOf(ctx, post)],
    });
    return updated;
  });
  return (await presentPosts(ctx, [edited], actor.id))[0]!;
}

/** The author of the post `post` quotes, if any (their blocks keep the quote from a member). */
async function originalAuthorOf(ctx: AppContext, post: PostDoc): Promise<number | null> {
  if (!post.originalPostId) return null;
  const found = await ctx.caches.feed.postsById([post.originalPostId]);
  return found.get(post.originalPostId)?.authorId ?? null;
}
