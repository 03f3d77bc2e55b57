/**
 * Issue 41: applications stored before the queue grouped them by applicant get their applicant
 * key (the e-mail address in the contact information, else the contact information itself).
 * Once, before the API listens. Safe to run again: it reads only applications without one.
 */
import { backfillApplicants } from '../modules/account-applications/applications';
import type { MigrationContext } from './run';

export async function up({ models, logger }: MigrationContext): Promise<void> {
  const applications = await backfillApplicants(models.AccountApplication);
  if (applications > 0)
    logger.info({ applications }, 'applicants filled in for older applications');
}
