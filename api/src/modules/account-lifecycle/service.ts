import { createHash, randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';
import type {
  ChangePasswordRequest,
  ChangePasswordResponse,
  ResetPasswordRequest,
} from '@campus/contracts';
import type { DomainEvent } from '../../domain-events';
import type { AuthUser, TokenService } from '../../platform/auth';
import { badRequest, forbidden, notFound } from '../../platform/errors';
import type { Mailer } from '../../platform/mailer';
import type { UploadStorage } from '../../platform/storage';
import type { Transactions } from '../../platform/transactions';
import { verificationEmail } from '../auth/emails';
import type { CommentService } from '../comments/service';
import type { FeedbackService } from '../feedback/service';
import type { FollowService } from '../follows/service';
import type { LikeService } from '../likes/service';
import type { NotificationService } from '../notifications/service';
import type { PostService } from '../posts/service';
import type { RepostService } from '../reposts/service';
import { UNVERIFIED_ACCOUNT_TTL_MS, type UserService } from '../users/service';
import { passwordResetEmail } from './emails';
import { accountPolicy } from './policy';

/** The same answer whether or not the address has an account: nobody can probe who is a member. */
export const RESET_LINK_SENT =
  'If an account exists for that address, we have sent it a link to reset the password. The link works once, within 1 hour.';
export const VERIFICATION_LINK_SENT =
  'If that address has an account waiting for verification, we have sent it a new link.';
export const PASSWORD_RESET = 'Your password has been reset. You can now sign in.';
export const INVALID_RESET_LINK =
  'This reset link is invalid, has expired or has already been used. Please request a new one.';
export const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';
export const WRONG_PASSWORD = 'Password is incorrect';
export const CANNOT_DELETE_ACCOUNT = 'You can only delete your own account';
export const CANNOT_DELETE_ADMIN = 'The administrator account cannot be deleted';

/** A reset link works for an hour. */
export const RESET_TOKEN_TTL_MS = 60 * 60_000;

/** Link tokens: 32 random bytes (256 bits), base64url; only their SHA-256 is stored. */
const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashLinkToken(token) };
}

function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface AccountLifecycleOptions {
  bcryptRounds: number;
  webUrl: string;
  adminUserId: number;
  mailer: Mailer;
  tokens: TokenService;
  storage: Pick<UploadStorage, 'remove'>;
}

export interface AccountLifecycleDeps {
  /**
   * One database transaction with its events: every mongoose operation inside it joins (the app
   * enables mongoose's transactionAsyncLocalStorage); retried whole on a write conflict
   * (platform/transactions.ts).
   */
  writes: Transactions<DomainEvent>;
  users: UserService;
  posts: PostService;
  comments: CommentService;
  likes: LikeService;
  reposts: RepostService;
  follows: FollowService;
  notifications: NotificationService;
  feedback: FeedbackService;
}

/**
 * Forgotten and changed passwords, revoked sessions, resent verification links and deleting an
 * account. Every change of password, and "sign out of all devices", moves the account's
 * `tokensValidAfter`: the bearer middleware refuses every token issued before it.
 */
export function createAccountLifecycleService(deps: AccountLifecycleDeps) {
  const { accounts } = deps.users;

  /**
   * Mails a reset link to an existing account; a newer request replaces the older token. Answers
   * nothing either way (the route says the same thing whether or not the account exists).
   */
  async function requestPasswordReset(email: string, options: AccountLifecycleOptions) {
    const user = await accounts.findByEmail(email);
    if (!user) return;
    const { token, hash } = newLinkToken();
    await accounts.setPasswordResetToken(user._id, hash, new Date(Date.now() + RESET_TOKEN_TTL_MS));
    await options.mailer.send(
      passwordResetEmail(user.name, user.email, `${options.webUrl}/reset-password/${token}`),
    );
  }

  /** Sets the password of the account holding this unexpired token; the token works once. */
  async function resetPassword(input: ResetPasswordRequest, options: AccountLifecycleOptions) {
    if (!LINK_TOKEN_PATTERN.test(input.token)) throw badRequest(INVALID_RESET_LINK);
    const passwordHash = await bcrypt.hash(input.password, options.bcryptRounds);
    const done = await accounts.resetPasswordByToken(
      hashLinkToken(input.token),
      passwordHash,
      new Date(),
    );
    if (!done) throw badRequest(INVALID_RESET_LINK);
  }

  async function checkPassword(userId: number, password: string, wrong: string) {
    const stored = await accounts.findPasswordHash(userId);
    if (stored === null) throw notFound('User not found');
    if (!(await bcrypt.compare(password, stored))) throw badRequest(wrong);
  }

  /** Changes the caller's password, revokes every older token and answers a fresh one. */
  async function changePassword(
    actor: AuthUser,
    input: ChangePasswordRequest,
    options: AccountLifecycleOptions,
  ): Promise<ChangePasswordResponse> {
    await checkPassword(actor.id, input.currentPassword, WRONG_CURRENT_PASSWORD);
    const passwordHash = await bcrypt.hash(input.newPassword, options.bcryptRounds);
    await accounts.changePassword(actor.id, passwordHash, new Date());
    return { token: options.tokens.sign(actor.id) };
  }

  /** Sign out of all devices: every token issued until now stops working. */
  async function signOutEverywhere(actor: AuthUser): Promise<void> {
    await accounts.revokeSessions(actor.id, new Date());
  }

  /** A new verification link for an unverified account (the old one stops working). */
  async function resendVerification(email: string, options: AccountLifecycleOptions) {
    const { token, hash } = newLinkToken();
    const user = await accounts.renewVerificationToken(
      email,
      hash,
      new Date(Date.now() + UNVERIFIED_ACCOUNT_TTL_MS),
    );
    if (!user) return;
    await options.mailer.send(
      verificationEmail(user.name, user.email, `${options.webUrl}/verify/${token}`),
    );
  }

  /**
   * Deletes the caller's account and everything it made: posts (and the comments, likes and
   * reposts on them), its comments (and their replies and likes), its likes and reposts of
   * others' posts, follows both ways, notifications to and from it, feedback and avatar; the
   * counts on other members' posts and comments it touched are recounted from their sources.
   *
   * All of it in one transaction, so no reader ever sees half an account and a failure leaves
   * everything as it was; the counts are recounted from their sources inside it. The avatar file
   * goes after the commit (a file is not part of the transaction).
   */
  async function deleteAccount(
    actor: AuthUser,
    userId: number,
    password: string,
    options: AccountLifecycleOptions,
  ): Promise<void> {
    if (!accountPolicy.canDeleteAccount(actor, userId, options.adminUserId)) {
      throw forbidden(userId === options.adminUserId ? CANNOT_DELETE_ADMIN : CANNOT_DELETE_ACCOUNT);
    }
    await checkPassword(userId, password, WRONG_PASSWORD);
    let avatarUrl: string | null = null;
    await deps.writes.transaction(async () => {
      avatarUrl = await removeEverything(userId);
      deps.writes.publish({ type: 'account.deleted', userId });
    });
    if (avatarUrl) await options.storage.remove(avatarUrl);
  }

  /** Removes the account and all it made; answers its stored avatar URL. */
  async function removeEverything(userId: number): Promise<string | null> {
    const ownPostIds = await deps.posts.postIdsByAuthor(userId);
    const removedComments = await deps.comments.removeCommentsOf(userId, ownPostIds);
    const unliked = await deps.likes.removeLikesOf(userId, {
      postIds: ownPostIds,
      commentIds: removedComments.commentIds,
    });
    const unreposted = await deps.reposts.removeRepostsOf(userId, ownPostIds);
    await deps.posts.removePosts(ownPostIds);

    const gone = new Set(ownPostIds);
    const touchedPosts = [
      ...new Set([...removedComments.postIds, ...unliked.postIds, ...unreposted]),
    ].filter((id) => !gone.has(id));
    await deps.posts.recountPosts(touchedPosts);
    await deps.comments.recountCommentLikes(unliked.commentIds);

    await deps.follows.removeFollowsOf(userId);
    await deps.notifications.removeNotificationsOf(userId);
    await deps.feedback.removeFeedbackOf(userId);
    return accounts.removeAccount(userId);
  }

  return {
    requestPasswordReset,
    resetPassword,
    changePassword,
    signOutEverywhere,
    resendVerification,
    deleteAccount,
  };
}

export type AccountLifecycleService = ReturnType<typeof createAccountLifecycleService>;
