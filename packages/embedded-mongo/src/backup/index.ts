/**
 * Backups in mongodump's archive format: `dump` a running server at one point in time, `restore`
 * an archive (ours or mongodump's) into a server, and `fingerprint` a database to compare them.
 */
export { dump, type DumpOptions, type DumpResult } from './dump';
export { restore, type RestoreOptions, type RestoreResult } from './restore';
export {
  compareFingerprints,
  fingerprint,
  type CollectionFingerprint,
  type Fingerprint,
  type FingerprintOptions,
} from './fingerprint';
export { openArchive, ArchiveWriter, ArchiveFormatError } from './archive';
