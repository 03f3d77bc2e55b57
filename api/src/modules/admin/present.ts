/** How the administrator's pages show members, applications and pages of results. */
import type { AdminApplication, AdminMemberRef, AdminUser } from '@campus/contracts';
import type { AppContext } from '../../context';
import { toPublicFileUrl } from '../../platform/storage';
import { emailInContactInfo } from '../account-applications/applications';
import type { decideApplication } from '../account-applications/applications';
import { memberStatusOf, type accountRefs, type AdminAccountFields } from '../users/admin-accounts';
import { userPolicy } from '../users/policy';

/** How much of removed content the author's notification and the audit log keep. */
const EXCERPT_LENGTH = 100;

export type Page = { page: number; pageSize: number };

// What the modules answer (this module never imports another module's model).
type AccountApplicationDoc = Awaited<ReturnType<typeof decideApplication>>;
type AccountRef = NonNullable<ReturnType<Awaited<ReturnType<typeof accountRefs>>['get']>>;

export const window = ({ page, pageSize }: Page) => ({
  skip: (page - 1) * pageSize,
  limit: pageSize,
});

export function excerpt(text: string): string {
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH)}...` : text;
}

export function toAdminApplication(
  doc: AccountApplicationDoc & { earlier?: AccountApplicationDoc[] },
): AdminApplication {
  return {
    id: doc._id,
    name: doc.name,
    contactInfo: doc.contactInfo,
    message: doc.message,
    status: doc.status,
    email: emailInContactInfo(doc.contactInfo),
    createdAt: doc.createdAt.toISOString(),
    decidedAt: doc.decidedAt?.toISOString() ?? null,
    rejectionReason: doc.rejectionReason ?? null,
    ...(doc.earlier
      ? {
          earlier: doc.earlier.map((e) => ({
            id: e._id,
            status: e.status,
            message: e.message,
            createdAt: e.createdAt.toISOString(),
            decidedAt: e.decidedAt?.toISOString() ?? null,
          })),
        }
      : {}),
  };
}

export function memberRef(
  ctx: AppContext,
  user: AccountRef | undefined,
  publicUrl: string,
): AdminMemberRef | null {
  if (!user) return null;
  return {
    id: user._id,
    name: user.name,
    email: user.email,
    avatarUrl: user.avatarUrl ? toPublicFileUrl(user.avatarUrl, publicUrl) : null,
  };
}

export function toAdminUser(ctx: AppContext, user: AdminAccountFields): AdminUser {
  return {
    id: user._id,
    name: user.name,
    email: user.email,
    avatarUrl: user.avatarUrl ? toPublicFileUrl(user.avatarUrl, ctx.config.publicUrl) : null,
    ...(user.affiliation ? { affiliation: user.affiliation } : {}),
    status: memberStatusOf(user),
    isAdmin: userPolicy.isAdministrator(ctx, user._id),
    suspendedAt: user.suspendedAt?.toISOString() ?? null,
    suspensionReason: user.suspensionReason ?? null,
    suspensionCategory: user.suspendedAt ? (user.suspensionCategory ?? 'other') : null,
    createdAt: user.createdAt.toISOString(),
    lastActiveAt: user.lastActiveAt?.toISOString() ?? null,
  };
}
