/**
 * A MongoDB-compatible server for machines where mongod cannot be installed.
 * `start({ port: 0 })` serves an in-memory database on a random port; give `dbPath` for a
 * durable one. See the package README for what is and is not supported.
 */
import { startServer, type RunningServer, type ServerOptions } from './server';

export type { RunningServer, ServerOptions };

export interface StartOptions extends ServerOptions {
  /** Directory for the journal; omit for an in-memory database. */
  dbPath?: string;
}

export function start(options: StartOptions = {}): Promise<RunningServer> {
  return startServer({ port: 0, ...options });
}

/** Backups in mongodump's archive format, and fingerprints to compare databases (see backup/). */
export { compareFingerprints, dump, fingerprint, restore } from './backup';
export type {
  CollectionFingerprint,
  DumpOptions,
  DumpResult,
  Fingerprint,
  FingerprintOptions,
  RestoreOptions,
  RestoreResult,
} from './backup';
