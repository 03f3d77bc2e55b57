/**
 * Issue 41: a member's first sign-in opens the first run (avatar, bio, people to follow), told by
 * the sign-in that first sets `users.firstSignedInAt`. Accounts stored before that field existed
 * get it now, so members of an older version are not asked after the upgrade. Once, before the
 * API listens. Safe to run again: it reads only accounts without the date.
 */
import { backfillFirstSignIns } from '../modules/users/accounts';
import type { MigrationContext } from './run';

export async function up({ models, logger }: MigrationContext): Promise<void> {
  const users = await backfillFirstSignIns(models.User, new Date());
  if (users > 0) logger.info({ users }, 'first sign-in recorded for older accounts');
}
