/**
 * Accounts as the administrator sees and changes them (issue 18): the member list with search and
 * status, suspension and reactivation, and the accounts invitations create. The rest of the
 * users module (profiles, sign-in) is in service.ts.
 */
import { trusted } from 'mongoose';
import type { MemberStatus, ReportCategory } from '@campus/contracts';
import type { AppContext } from '../../context';
import { conflict, notFound } from '../../platform/errors';
import { UNVERIFIED_ACCOUNT_TTL_MS } from './accounts';
import { usersOf, type UserDoc } from './model';
import { USER_NOT_FOUND } from './queries';

export const ALREADY_SUSPENDED = 'This member is already suspended';
export const NOT_SUSPENDED = 'This member is not suspended';

/** The fields the admin member list shows. */
export type AdminAccountFields = Pick<
  UserDoc,
  | '_id'
  | 'name'
  | 'email'
  | 'avatarUrl'
  | 'affiliation'
  | 'isVerified'
  | 'suspendedAt'
  | 'suspensionReason'
  | 'suspensionCategory'
  | 'createdAt'
  | 'lastActiveAt'
>;
const ADMIN_ACCOUNT_FIELDS = {
  _id: 1,
  name: 1,
  email: 1,
  avatarUrl: 1,
  affiliation: 1,
  isVerified: 1,
  suspendedAt: 1,
  suspensionReason: 1,
  suspensionCategory: 1,
  createdAt: 1,
  lastActiveAt: 1,
};

/** Where an account stands: suspended first, then unverified, else active. */
export function memberStatusOf(user: Pick<UserDoc, 'isVerified' | 'suspendedAt'>): MemberStatus {
  if (user.suspendedAt) return 'suspended';
  return user.isVerified ? 'active' : 'unverified';
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function statusFilter(status: MemberStatus | undefined): Record<string, unknown> {
  switch (status) {
    case 'suspended':
      return { suspendedAt: trusted({ $ne: null }) };
    case 'unverified':
      return { isVerified: false, suspendedAt: null };
    case 'active':
      return { isVerified: true, suspendedAt: null };
    default:
      return {};
  }
}

/** Members newest first: `q` is a part of the name or e-mail, in any case. */
export async function listAccounts(
  ctx: AppContext,
  query: { q?: string; status?: MemberStatus },
  page: { skip: number; limit: number },
): Promise<{ items: AdminAccountFields[]; total: number }> {
  const filter: Record<string, unknown> = statusFilter(query.status);
  if (query.q) {
    const pattern = new RegExp(escapeRegex(query.q), 'i');
    filter.$or = [{ name: pattern }, { email: pattern }];
  }
  const [items, total] = await Promise.all([
    usersOf(ctx)
      .find(filter, ADMIN_ACCOUNT_FIELDS)
      .sort({ createdAt: -1, _id: -1 })
      .skip(page.skip)
      .limit(page.limit)
      .lean<AdminAccountFields[]>(),
    usersOf(ctx).countDocuments(filter),
  ]);
  return { items, total };
}

export async function findAccount(ctx: AppContext, id: number): Promise<AdminAccountFields> {
  const user = await usersOf(ctx).findById(id, ADMIN_ACCOUNT_FIELDS).lean<AdminAccountFields>();
  if (!user) throw notFound(USER_NOT_FOUND);
  return user;
}

/**
 * Suspends an active account, in the caller's transaction: it cannot sign in, and every token
 * issued until now is refused (`account.suspended` reaches every API process's account cache),
 * so a reactivated member signs in again. 404 unknown, 409 already suspended.
 */
export async function suspendAccount(
  ctx: AppContext,
  id: number,
  reason: { category: ReportCategory; text: string },
  now: Date,
): Promise<AdminAccountFields> {
  const user = await usersOf(ctx)
    .findOneAndUpdate(
      { _id: id, suspendedAt: null },
      {
        $set: {
          suspendedAt: now,
          suspensionReason: reason.text,
          suspensionCategory: reason.category,
          tokensValidAfter: now,
        },
      },
      { returnDocument: 'after', projection: ADMIN_ACCOUNT_FIELDS },
    )
    .lean<AdminAccountFields>();
  if (user) {
    ctx.publish({ type: 'account.suspended', userId: id });
    return user;
  }
  await findAccount(ctx, id); // 404 when there is no such account
  throw conflict(ALREADY_SUSPENDED);
}

/** Lifts a suspension, in the caller's transaction. 404 unknown, 409 not suspended. */
export async function reactivateAccount(ctx: AppContext, id: number): Promise<AdminAccountFields> {
  const user = await usersOf(ctx)
    .findOneAndUpdate(
      { _id: id, suspendedAt: trusted({ $ne: null }) },
      { $set: { suspendedAt: null, suspensionReason: null, suspensionCategory: null } },
      { returnDocument: 'after', projection: ADMIN_ACCOUNT_FIELDS },
    )
    .lean<AdminAccountFields>();
  if (user) {
    ctx.publish({ type: 'account.reactivated', userId: id });
    return user;
  }
  await findAccount(ctx, id);
  throw conflict(NOT_SUSPENDED);
}

/** Accounts by id, as admin lists name them (missing ids are left out). */
export async function accountRefs(
  ctx: AppContext,
  ids: number[],
): Promise<Map<number, Pick<UserDoc, '_id' | 'name' | 'email' | 'avatarUrl' | 'suspendedAt'>>> {
  if (ids.length === 0) return new Map();
  const users = await usersOf(ctx)
    .find(
      { _id: trusted({ $in: [...new Set(ids)] }) },
      { name: 1, email: 1, avatarUrl: 1, suspendedAt: 1 },
    )
    .lean();
  return new Map(users.map((u) => [u._id, u]));
}

/**
 * The account an invitation registers, marked `affiliation: 'alumni'`. `verified`: the address
 * is the one the invitation's mailed link went to, and that link was used, so it needs no
 * verification link. An unverified
 * sign-up of the same address is replaced (as registration does); a verified one: 409-worthy
 * duplicate-key error from the unique index.
 */
export async function createInvitedAccount(
  ctx: AppContext,
  fields: {
    id: () => Promise<number>;
    name: string;
    email: string;
    password: string;
    verified: boolean;
    verificationToken: string | null;
    /** The hash of the registering browser's sign-up cookie (auth/sign-up-cookie.ts). */
    signUpSecretHash: string | null;
  },
): Promise<UserDoc> {
  const base = {
    name: fields.name,
    password: fields.password,
    affiliation: 'alumni' as const,
    isVerified: fields.verified,
    verificationToken: fields.verified ? null : fields.verificationToken,
    signUpSecretHash: fields.verified ? null : fields.signUpSecretHash,
  };
  // Unverified: removed by the TTL index unless verified in time (as any sign-up).
  const expiresAt = fields.verified ? undefined : new Date(Date.now() + UNVERIFIED_ACCOUNT_TTL_MS);
  const replaced = await usersOf(ctx)
    .findOneAndUpdate(
      { email: fields.email, isVerified: false },
      expiresAt
        ? { $set: { ...base, unverifiedExpiresAt: expiresAt } }
        : { $set: base, $unset: { unverifiedExpiresAt: 1 } },
      { returnDocument: 'after' },
    )
    .lean<UserDoc>();
  const user =
    replaced ??
    (
      await usersOf(ctx).create({
        _id: await fields.id(),
        email: fields.email,
        ...base,
        ...(expiresAt ? { unverifiedExpiresAt: expiresAt } : {}),
      })
    ).toObject<UserDoc>();
  ctx.publish({ type: 'account.registered', userId: user._id });
  if (fields.verified) ctx.publish({ type: 'account.verified', userId: user._id });
  return user;
}
