/**
 * Issue 40: accounts stored before people search read `users.searchTerms`, or before those terms
 * held the e-mail address's domain (`@campus.edu`), get them. Once, before the API listens,
 * rather than a scan of every account at every start. Safe to run again: it reads only the
 * accounts whose terms are missing or lack the domain.
 */
import { backfillSearchTerms } from '../modules/users/search-terms';
import type { MigrationContext } from './run';

export async function up({ models, logger }: MigrationContext): Promise<void> {
  const users = await backfillSearchTerms(models.User);
  if (users > 0) logger.info({ users }, 'search terms filled in for older accounts');
}
