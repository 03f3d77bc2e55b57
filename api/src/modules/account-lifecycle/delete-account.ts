import type { AppContext } from '../../context';
import type { AuthUser } from '../../platform/auth';
import { forbidden } from '../../platform/errors';
import { removeBookmarksOf } from '../bookmarks/queries';
import { recountCommentLikes, removeCommentsOf } from '../comments/moderation';
import { removeFeedbackOf } from '../feedback/queries';
import { removeFollowsOf } from '../follows/toggle-follow';
import { removeLikesOf } from '../likes/toggle-like';
import { removeTagFollowsOf } from '../tags/follow-tag';
import { removeNotificationsOf } from '../notifications/notify';
import { recountPosts, removePosts } from '../posts/moderation';
import { postIdsByAuthor } from '../posts/queries';
import { removeRepostsOf } from '../reposts/repost-records';
import { removeAccount } from '../users/accounts';
import { userPolicy } from '../users/policy';
import { eraseVersions } from '../versions/versions';
import { checkPassword, WRONG_PASSWORD } from './passwords';
import { accountPolicy } from './policy';

export const CANNOT_DELETE_ACCOUNT = 'You can only delete your own account';

export const CANNOT_DELETE_ADMIN = 'The administrator account cannot be deleted';

/**
 * Deletes the caller's account and everything it made: posts (and the comments, likes and
 * reposts on them), its comments (and their replies and likes), its likes and reposts of
 * others' posts, follows both ways, notifications to and from it, bookmarks (its own and
 * everyone's of its posts), feedback and avatar; the
 * counts on other members' posts and comments it touched are recounted from their sources.
 *
 * All of it in one transaction, so no reader ever sees half an account and a failure leaves
 * everything as it was; the counts are recounted from their sources inside it. The avatar file
 * goes after the commit (a file is not part of the transaction).
 */
export async function deleteAccount(
  ctx: AppContext,
  actor: AuthUser,
  userId: number,
  password: string,
): Promise<void> {
  if (!accountPolicy.canDeleteAccount(ctx, actor, userId)) {
    throw forbidden(
      userPolicy.isAdministrator(ctx, userId) ? CANNOT_DELETE_ADMIN : CANNOT_DELETE_ACCOUNT,
    );
  }
  await checkPassword(ctx, userId, password, WRONG_PASSWORD);
  let avatarUrl: string | null = null;
  await ctx.transaction(async () => {
    avatarUrl = await removeEverything(ctx, userId);
    ctx.publish({ type: 'account.deleted', userId });
  });
  if (avatarUrl) await ctx.storage.remove(avatarUrl);
}

/** Removes the account and all it made; answers its stored avatar URL. */
async function removeEverything(ctx: AppContext, userId: number): Promise<string | null> {
  const ownPostIds = await postIdsByAuthor(ctx, userId);
  const removedComments = await removeCommentsOf(ctx, userId, ownPostIds);
  const unliked = await removeLikesOf(ctx, userId, {
    postIds: ownPostIds,
    commentIds: removedComments.commentIds,
  });
  const unreposted = await removeRepostsOf(ctx, userId, ownPostIds);
  await removePosts(ctx, ownPostIds);
  // Its bookmarks, and everyone's of its posts (issue 40).
  await removeBookmarksOf(ctx, userId, ownPostIds);
  // The earlier texts of what goes, edited before.
  await eraseVersions(ctx, 'post', ownPostIds);
  await eraseVersions(ctx, 'comment', removedComments.commentIds);

  const gone = new Set(ownPostIds);
  const touchedPosts = [
    ...new Set([...removedComments.postIds, ...unliked.postIds, ...unreposted]),
  ].filter((id) => !gone.has(id));
  await recountPosts(ctx, touchedPosts);
  await recountCommentLikes(ctx, unliked.commentIds);

  await removeFollowsOf(ctx, userId);
  await removeTagFollowsOf(ctx, userId);
  await removeNotificationsOf(ctx, userId);
  await removeFeedbackOf(ctx, userId);
  return removeAccount(ctx, userId);
}
