import type { AppContext } from '../../context';
import { countedLikes, toggleLike, type LikeResult } from '../likes/toggle-like';
import { notify } from '../notifications/notify';
import { postsOf } from './model';
import { postForWriteBy } from './screen';

/**
 * Likes or unlikes a visible post; the first like by a member notifies the author once, in the
 * like's transaction.
 */
export async function togglePostLike(
  ctx: AppContext,
  userId: number,
  postId: number,
): Promise<LikeResult> {
  const post = await postForWriteBy(ctx, postId, userId);
  const counter = countedLikes(postsOf(ctx), postId, {
    event: (liked) => ({ type: liked ? 'post.liked' : 'post.unliked', postId, userId }),
    afterLike: async () => {
      if (post.authorId !== userId)
        await notify(ctx, 'like', post.authorId, { actorId: userId, postId });
    },
  });
  const result = await toggleLike(ctx, userId, { kind: 'post', id: postId }, counter);
  return { liked: result.liked, likesCount: result.likesCount };
}
