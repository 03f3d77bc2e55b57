import type { AppContext } from '../context';

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
 * Its events reach the API processes running through the outbox.
 */
export async function provisionAdmin(
  {
    models: { User },
    transaction,
    publish,
  }: Pick<AppContext, 'models' | 'transaction' | 'publish'>,
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
  const userId = account.adminUserId;
  return transaction(async () => {
    const reset = await User.updateOne(
      { _id: userId },
      { $set: { ...credentials, lastPasswordChange: now, tokensValidAfter: now } },
    );
    if (reset.matchedCount === 1) {
      publish({ type: 'session.revoked', userId }, { type: 'profile.updated', userId });
      return 'reset';
    }
    await User.create({ _id: userId, name: account.name, ...credentials });
    publish({ type: 'account.registered', userId }, { type: 'account.verified', userId });
    return 'created';
  });
}
