import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type mongoose from 'mongoose';
import { isDuplicateKey } from './mongo-errors';

/**
 * Values generated once per deployment and shared by every API process; its own collection, apart
 * from the public settings (`app_settings`), so nothing that lists settings can reach a secret.
 */
export const SECRETS_COLLECTION = 'secrets';
const JWT_SECRET_ID = 'jwt-secret';

interface StoredSetting {
  _id: string;
  value: string;
  createdAt: Date;
}

/** What the API used before the secret moved into the database, so upgrading keeps sessions. */
async function legacySecretFile(dataDir: string): Promise<string | undefined> {
  try {
    const stored = (await fs.readFile(path.join(dataDir, 'jwt-secret'), 'utf8')).trim();
    return stored.length >= 32 ? stored : undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * The JWT signing secret: `JWT_SECRET` when set; otherwise the one kept in the database, generated
 * by whichever process starts first. Every process offers its own candidate with an insert under
 * one fixed `_id`, so when several start together on an empty database exactly one insert wins
 * (the others lose with E11000) and every process reads that one value back: tokens signed by any
 * process are accepted by all. A `<dataDir>/jwt-secret` file left by an older version is offered
 * as the candidate, so existing sessions survive the upgrade.
 */
export async function resolveJwtSecret(
  configured: string | undefined,
  connection: mongoose.Connection,
  dataDir?: string,
): Promise<string> {
  if (configured) return configured;
  const db = connection.db;
  if (!db) throw new Error('resolveJwtSecret: the database connection is not open');
  const settings = db.collection<StoredSetting>(SECRETS_COLLECTION);
  const candidate =
    (dataDir ? await legacySecretFile(dataDir) : undefined) ??
    randomBytes(48).toString('base64url');
  try {
    await settings.insertOne({ _id: JWT_SECRET_ID, value: candidate, createdAt: new Date() });
    return candidate;
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  const stored = await settings.findOne({ _id: JWT_SECRET_ID });
  if (!stored || typeof stored.value !== 'string' || stored.value.length < 32) {
    throw new Error(`The stored JWT secret (${SECRETS_COLLECTION}.${JWT_SECRET_ID}) is invalid`);
  }
  return stored.value;
}
