/** Spec §6: the only administrator is the user with this id (configurable through env.json). */
export const ADMIN_USER_ID_DEFAULT = 107;

export function isAdmin(
  user: { id: number } | null | undefined,
  adminUserId: number = ADMIN_USER_ID_DEFAULT,
): boolean {
  return user?.id === adminUserId;
}
