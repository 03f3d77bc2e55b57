/**
 * Accounts as the auth and account-lifecycle modules read and write them (sign-up, e-mail
 * verification, login, passwords, sessions, deletion). Writes that others react to publish their
 * events (`session.revoked`, `account.verified`...); the bookkeeping of credentials (a reset token
 * stored, a verification link renewed) changes nothing anyone reads, and tells nothing.
 */
import { trusted } from 'mongoose';
import type { AppContext } from '../../context';
import type { DomainEvent } from '../../domain-events';
import { usersOf, type UserDoc, type UserModel } from './model';

/** An unverified sign-up is removed this long after its latest verification link (TTL index). */
export const UNVERIFIED_ACCOUNT_TTL_MS = 48 * 60 * 60_000;

/** Runs `write` in a transaction that tells `event` when `write` answers true. */
function telling(ctx: AppContext, event: DomainEvent, write: () => Promise<boolean>) {
  return ctx.transaction(async () => {
    const done = await write();
    if (done) ctx.publish(event);
    return done;
  });
}

/** Whether a verified account holds this e-mail (an unverified sign-up does not block it). */
export async function emailTaken(ctx: AppContext, email: string): Promise<boolean> {
  return (await usersOf(ctx).exists({ email, isVerified: true })) !== null;
}

/**
 * Creates an unverified account that expires after UNVERIFIED_ACCOUNT_TTL_MS; a taken e-mail
 * fails with a duplicate-key error.
 */
export async function createSignUp(
  ctx: AppContext,
  fields: Pick<
    UserDoc,
    '_id' | 'name' | 'email' | 'password' | 'verificationToken' | 'signUpSecretHash'
  >,
) {
  const unverifiedExpiresAt = new Date(Date.now() + UNVERIFIED_ACCOUNT_TTL_MS);
  return ctx.transaction(async () => {
    const user = (
      await usersOf(ctx).create({ ...fields, unverifiedExpiresAt })
    ).toObject<UserDoc>();
    ctx.publish({ type: 'account.registered', userId: user._id });
    return user;
  });
}

/**
 * Registering an address whose sign-up is still unverified replaces that sign-up: new name,
 * password, link and registering browser (the old link and cookie stop working; without
 * `verificationToken` it keeps its link), a new 48 hours. Null when the address has no
 * unverified account (none, or verified meanwhile). The replaced password can never sign in
 * unless its browser verifies (verifyWithSignUpPassword).
 */
export async function replacePendingSignUp(
  ctx: AppContext,
  fields: Pick<UserDoc, 'name' | 'email' | 'password' | 'signUpSecretHash'> &
    Partial<Pick<UserDoc, 'verificationToken'>>,
): Promise<UserDoc | null> {
  const { email, ...changes } = fields;
  return ctx.transaction(async () => {
    const user = await usersOf(ctx)
      .findOneAndUpdate(
        { email, isVerified: false },
        {
          $set: {
            ...changes,
            unverifiedExpiresAt: new Date(Date.now() + UNVERIFIED_ACCOUNT_TTL_MS),
          },
        },
        { returnDocument: 'after' },
      )
      .lean<UserDoc>();
    if (user) ctx.publish({ type: 'account.registered', userId: user._id });
    return user;
  });
}

/** What a verification makes of an unverified account: verified, its link and cookie used up. */
const VERIFIED = {
  $set: { isVerified: true, verificationToken: null, signUpSecretHash: null },
  $unset: { unverifiedExpiresAt: 1 },
};

/**
 * Verifies the account holding this (hashed) verification token and keeps the password typed at
 * registration, only if `signUpSecretHash` is the hash of the registering browser's cookie: the
 * one who opened the link also typed that password. The verified account's id; null when no
 * account matches both.
 */
export async function verifyWithSignUpPassword(
  ctx: AppContext,
  tokenHash: string,
  signUpSecretHash: string,
): Promise<number | null> {
  return ctx.transaction(async () => {
    const user = await usersOf(ctx)
      .findOneAndUpdate({ verificationToken: tokenHash, signUpSecretHash }, VERIFIED, {
        projection: { _id: 1 },
      })
      .lean();
    if (user) ctx.publish({ type: 'account.verified', userId: user._id });
    return user?._id ?? null;
  });
}

/**
 * Verifies the account holding this (hashed) verification token with the password its opener
 * chose now (bcrypt hash): the link proves the mailbox, so the registration password is
 * discarded. False when no account holds the token (unknown, used or replaced).
 */
export async function verifyWithChosenPassword(
  ctx: AppContext,
  tokenHash: string,
  passwordHash: string,
): Promise<boolean> {
  return ctx.transaction(async () => {
    const user = await usersOf(ctx)
      .findOneAndUpdate(
        { verificationToken: tokenHash },
        { ...VERIFIED, $set: { ...VERIFIED.$set, password: passwordHash } },
        { projection: { _id: 1 } },
      )
      .lean();
    if (user) ctx.publish({ type: 'account.verified', userId: user._id });
    return user !== null;
  });
}

/** Whether an unverified account holds this (hashed) verification token. */
export async function verificationPending(ctx: AppContext, tokenHash: string): Promise<boolean> {
  return (await usersOf(ctx).exists({ verificationToken: tokenHash, isVerified: false })) !== null;
}

/** The stored password hash of an account, or null when there is none. */
export async function findPasswordHash(ctx: AppContext, id: number): Promise<string | null> {
  const user = await usersOf(ctx).findById(id, { password: 1 }).lean();
  return user?.password ?? null;
}

/** A new password's fields: older sessions end and any reset link stops working. */
function newPassword(passwordHash: string, now: Date) {
  return {
    password: passwordHash,
    lastPasswordChange: now,
    tokensValidAfter: now,
    passwordResetToken: null,
    passwordResetExpires: null,
  };
}

/** Stores the hash of a new reset token; it replaces any older one. */
export async function setPasswordResetToken(
  ctx: AppContext,
  id: number,
  tokenHash: string,
  expires: Date,
): Promise<void> {
  await usersOf(ctx).updateOne(
    { _id: id },
    { $set: { passwordResetToken: tokenHash, passwordResetExpires: expires } },
  );
}

/** Whether an account holds this (hashed) reset token, unexpired at `now`. Changes nothing. */
export async function resetTokenUsable(
  ctx: AppContext,
  tokenHash: string,
  now: Date,
): Promise<boolean> {
  const found = await usersOf(ctx)
    .findOne(
      { passwordResetToken: tokenHash, passwordResetExpires: trusted({ $gt: now }) },
      { _id: 1 },
    )
    .lean();
  return found !== null;
}

/**
 * Sets the password of the account holding this unexpired reset token, in one atomic update
 * that also clears the token (it works once), revokes every older session and marks the
 * e-mail verified (the member just proved they read it). False when no account matches.
 */
export async function resetPasswordByToken(
  ctx: AppContext,
  tokenHash: string,
  passwordHash: string,
  now: Date,
) {
  return ctx.transaction(async () => {
    const user = await usersOf(ctx)
      .findOneAndUpdate(
        { passwordResetToken: tokenHash, passwordResetExpires: trusted({ $gt: now }) },
        {
          $set: {
            ...newPassword(passwordHash, now),
            isVerified: true,
            verificationToken: null,
            signUpSecretHash: null,
          },
          $unset: { unverifiedExpiresAt: 1 },
        },
        { projection: { isVerified: 1 } },
      )
      .lean();
    if (!user) return false;
    ctx.publish({ type: 'session.revoked', userId: user._id });
    if (!user.isVerified) ctx.publish({ type: 'account.verified', userId: user._id });
    return true;
  });
}

/** A new password: every token issued before `now` is refused from now on. */
export async function storeNewPassword(
  ctx: AppContext,
  id: number,
  passwordHash: string,
  now: Date,
): Promise<void> {
  await telling(ctx, { type: 'session.revoked', userId: id }, async () => {
    await usersOf(ctx).updateOne({ _id: id }, { $set: newPassword(passwordHash, now) });
    return true;
  });
}

/** Sign out everywhere: every token issued before `now` is refused from now on. */
export async function revokeSessions(ctx: AppContext, id: number, now: Date): Promise<void> {
  await telling(ctx, { type: 'session.revoked', userId: id }, async () => {
    await usersOf(ctx).updateOne({ _id: id }, { $set: { tokensValidAfter: now } });
    return true;
  });
}

/**
 * A new verification token for the unverified account of this e-mail (the old link stops
 * working) and a new expiry; null when there is no unverified account with it.
 */
export async function renewVerificationToken(
  ctx: AppContext,
  email: string,
  tokenHash: string,
  expiresAt: Date,
): Promise<Pick<UserDoc, 'name' | 'email'> | null> {
  return usersOf(ctx)
    .findOneAndUpdate(
      { email, isVerified: false },
      { $set: { verificationToken: tokenHash, unverifiedExpiresAt: expiresAt } },
      { projection: { name: 1, email: 1 } },
    )
    .lean();
}

/**
 * Removes the account document (in the deletion's transaction, which tells `account.deleted`);
 * answers its stored avatar URL (to remove the file too).
 */
export async function removeAccount(ctx: AppContext, id: number): Promise<string | null> {
  const user = await usersOf(ctx)
    .findOneAndDelete({ _id: id }, { projection: { avatarUrl: 1 } })
    .lean();
  return user?.avatarUrl ?? null;
}

/**
 * Records the account's first sign-in (issue 41): true for exactly one sign-in ever, however many
 * run at once (one conditional write; the others find the date set).
 */
export async function recordFirstSignIn(ctx: AppContext, id: number): Promise<boolean> {
  const first = await usersOf(ctx)
    .findOneAndUpdate(
      { _id: id, firstSignedInAt: trusted({ $exists: false }) },
      { $set: { firstSignedInAt: ctx.clock.now() } },
      { projection: { _id: 1 } },
    )
    .lean();
  return first !== null;
}

/**
 * Gives every account without one a first sign-in date (migration 0004-first-signed-in: members of
 * older versions have signed in before, or will not need the first run); answers how many.
 */
export async function backfillFirstSignIns(User: UserModel, now: Date): Promise<number> {
  const result = await User.updateMany(
    { firstSignedInAt: trusted({ $exists: false }) },
    { $set: { firstSignedInAt: now } },
  );
  return result.modifiedCount;
}

/** The account with this id, password hash included (signing in only). */
export async function findAccountById(ctx: AppContext, id: number): Promise<UserDoc | null> {
  return usersOf(ctx).findOne({ _id: id }).lean<UserDoc>();
}

/** The account with this e-mail, password hash included (login only). */
export async function findByEmail(ctx: AppContext, email: string): Promise<UserDoc | null> {
  return usersOf(ctx).findOne({ email }).lean<UserDoc>();
}
