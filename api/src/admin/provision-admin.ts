import type { Models } from '../models';

export interface AdminAccount {
  adminUserId: number;
  email: string;
  name: string;
  /** bcrypt hash of the new password. */
  passwordHash: string;
}

/**
 * Creates the administrator as user `adminUserId`, or resets it: its e-mail, its password and a
 * verified address. A reset also ends every session the administrator had (tokens issued before
 * `tokensValidAfter` are refused), which is what a reset after a suspected leak needs.
 * Registration never hands out this id (auth service), so the only way to the account is here.
 */
export async function provisionAdmin(
  { models: { User } }: { models: Pick<Models, 'User'> },
  account: AdminAccount,
): Promise<'created' | 'reset'> {
  const holder = await User.findOne({ email: account.email }, { _id: 1 }).lean();
  if (holder && holder._id !== account.adminUserId) {
    throw new Error(
      `${account.email} already belongs to user ${holder._id}: give the administrator another e-mail`,
    );
  }
  const credentials = {
    email: account.email,
    password: account.passwordHash,
    isVerified: true,
    verificationToken: null,
    passwordResetToken: null,
    passwordResetExpires: null,
  };
  const now = new Date();
  const reset = await User.updateOne(
    { _id: account.adminUserId },
    { $set: { ...credentials, lastPasswordChange: now, tokensValidAfter: now } },
  );
  if (reset.matchedCount === 1) return 'reset';
  await User.create({ _id: account.adminUserId, name: account.name, ...credentials });
  return 'created';
}
