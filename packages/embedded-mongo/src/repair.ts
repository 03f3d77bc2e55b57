/**
 * `embedded-mongo repair --dbpath DIR`: makes a damaged journal usable again by cutting it at the
 * last record that reads and replays, after copying the whole file next to it. What is cut is
 * reported (bytes, and how many intact-looking records followed the damage), never hidden.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Engine } from './engine';
import { countRecordsAfter, JOURNAL_FILE, scanJournal } from './journal';

export interface RepairReport {
  file: string;
  /** Records kept (every one before the damage). */
  keptRecords: number;
  /** Set when something was cut. */
  cut?: {
    offset: number;
    bytes: number;
    reason: string;
    /** Intact-looking records after the damage that were cut with it (they are in the backup). */
    recordsAfter: number;
    backup: string;
  };
}

export function repairJournal(dbPath: string, now = new Date()): RepairReport {
  const file = path.join(dbPath, JOURNAL_FILE);
  if (!fs.existsSync(file)) throw new Error(`no journal at ${file}`);
  const buf = fs.readFileSync(file);
  const scan = scanJournal(buf, Engine.replayer());
  if (!scan.problem) return { file, keptRecords: scan.records };
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const backup = `${file}.before-repair-${stamp}`;
  fs.copyFileSync(file, backup, fs.constants.COPYFILE_EXCL);
  const fd = fs.openSync(file, 'r+');
  try {
    fs.ftruncateSync(fd, scan.end);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return {
    file,
    keptRecords: scan.records,
    cut: {
      offset: scan.end,
      bytes: buf.length - scan.end,
      reason: scan.problem.reason,
      recordsAfter: countRecordsAfter(buf, scan.end),
      backup,
    },
  };
}

export function describeRepair(r: RepairReport): string {
  if (!r.cut) return `${r.file} is intact (${r.keptRecords} records): nothing to repair.`;
  const { cut } = r;
  return [
    `Copied ${r.file} to ${cut.backup}.`,
    `Found at byte offset ${cut.offset}: ${cut.reason}.`,
    `Cut ${cut.bytes} bytes from offset ${cut.offset}: the damaged record and everything after it, ` +
      `including ${cut.recordsAfter} intact-looking record(s) (still in the copy).`,
    `Kept ${r.keptRecords} records. The server can start on this directory again.`,
  ].join('\n');
}
