/**
 * The database lock migrations run under (platform/migrations.ts): one document in
 * `migration_lock`, `{ _id: 'migrations', owner, acquiredAt, expiresAt }`. Whoever holds it runs
 * the migrations; every other runner (another API process, another machine, `npm run migrate`)
 * waits. The holder renews it while it works; a holder that dies leaves a lock that expires, and
 * the next runner takes it over.
 */
import type { mongo } from 'mongoose';
import { isDuplicateKey } from './mongo-errors';

export const MIGRATION_LOCK_COLLECTION = 'migration_lock';
const LOCK_ID = 'migrations';

export interface MigrationLockDoc {
  _id: string;
  /** Who holds it: host name, process id and a random part (one per runner). */
  owner: string;
  acquiredAt: Date;
  /** Past this instant the lock is free to take, whoever holds it. */
  expiresAt: Date;
}

export interface MigrationLock {
  /** Takes the lock if it is free, expired or already ours; false while another runner holds it. */
  acquire(): Promise<boolean>;
  /** Moves the expiry on; false when the lock is no longer ours (it expired and was taken over). */
  renew(): Promise<boolean>;
  /** Lets go of the lock if it is still ours. */
  release(): Promise<void>;
  /** The lock as stored (null when nobody holds it). */
  holder(): Promise<MigrationLockDoc | null>;
}

export function migrationLock(
  db: mongo.Db,
  { owner, lockMs, now }: { owner: string; lockMs: number; now: () => Date },
): MigrationLock {
  const locks = db.collection<MigrationLockDoc>(MIGRATION_LOCK_COLLECTION);
  return {
    async acquire() {
      const at = now();
      try {
        // Free (no document: the upsert inserts it), expired, or ours: one atomic write. Held by
        // another runner: the filter misses, the upsert's insert meets the _id and fails.
        await locks.updateOne(
          { _id: LOCK_ID, $or: [{ expiresAt: { $lte: at } }, { owner }] },
          {
            $set: { owner, acquiredAt: at, expiresAt: new Date(at.getTime() + lockMs) },
          },
          { upsert: true },
        );
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    async renew() {
      const expiresAt = new Date(now().getTime() + lockMs);
      const { matchedCount } = await locks.updateOne(
        { _id: LOCK_ID, owner },
        { $set: { expiresAt } },
      );
      return matchedCount === 1;
    },
    async release() {
      await locks.deleteOne({ _id: LOCK_ID, owner });
    },
    holder: () => locks.findOne({ _id: LOCK_ID }),
  };
}
