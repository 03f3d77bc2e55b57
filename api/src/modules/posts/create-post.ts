import type { CreatePostRequest, Post as PostView } from '@campus/contracts';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { attachMedia } from '../media/attach-media';
import { notifyMentions } from '../mentions/notify-mentions';
import { resolveMentions } from '../mentions/resolve-mentions';
import { postsOf } from './model';
import { postCreated } from './post-events';
import { presentNewPost } from './presenters';

export async function createPost(
  ctx: AppContext,
  author: AuthUser,
  input: CreatePostRequest,
): Promise<PostView> {
  const mentions = await resolveMentions(ctx, author.id, input.content, input.mentions);
  const id = await ctx.ids.nextId('posts');
  const post = await ctx.transaction(async () => {
    // The caller's own unattached uploads, or 400 and no post.
    const images = await attachMedia(ctx, author.id, id, input.images ?? []);
    const created = (
      await postsOf(ctx).create({
        _id: id,
        authorId: author.id,
        content: input.content,
        syncToProfile: input.syncToProfile ?? true,
        isJdTagged: input.isJdTagged ?? false,
        ...(images.length > 0 ? { images } : {}),
        ...(mentions.length > 0 ? { mentions } : {}),
      })
    ).toObject();
    ctx.publish(postCreated(created));
    await notifyMentions(ctx, { writerId: author.id, postId: id, commentId: null, mentions });
    return created;
  });
  // A post just written quotes nothing and is neither liked nor reposted by anyone yet: only
  // its author is read (cached), never the viewer's flags.
  return presentNewPost(ctx, post, author.id);
}
