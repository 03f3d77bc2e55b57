/**
 * The TTL monitor: like mongod's, a background pass every `intervalMs` (60 s by default) deletes
 * the documents of every collection with a TTL index (`expireAfterSeconds` on a single field)
 * whose indexed date, plus that many seconds, has passed. A field holding an array expires with
 * its earliest date; documents whose field holds no date never expire. The deletes go through the
 * engine like any other, so they are journaled and seen by change streams.
 */
import type { Engine } from './engine';
import { valuesAtPath, type Doc } from './values';

export class TtlMonitor {
  private timer: NodeJS.Timeout;
  /** Off with `setParameter: 1, ttlMonitorEnabled: false`: the passes delete nothing. */
  enabled = true;

  constructor(
    private readonly engine: Engine,
    intervalMs = 60_000,
  ) {
    this.timer = this.schedule(intervalMs);
  }

  private schedule(intervalMs: number): NodeJS.Timeout {
    const timer = setInterval(() => {
      if (this.enabled) this.run();
    }, intervalMs);
    timer.unref();
    return timer;
  }

  /** A new interval between passes (`setParameter: 1, ttlMonitorSleepSecs: n`), from now. */
  setInterval(intervalMs: number): void {
    clearInterval(this.timer);
    this.timer = this.schedule(intervalMs);
  }

  /** One pass; returns how many documents it deleted. */
  run(now = Date.now()): number {
    let deleted = 0;
    for (const colls of this.engine.dbs.values()) {
      for (const coll of colls.values()) {
        for (const ix of coll.indexes) {
          const seconds = Number(ix.spec.expireAfterSeconds);
          if (ix.spec.expireAfterSeconds === undefined || !Number.isFinite(seconds)) continue;
          if (ix.fields.length !== 1) continue; // mongod ignores compound TTL indexes too
          const path = (ix.fields[0] as { path: string[] }).path;
          const expired: Doc[] = [];
          for (const doc of coll.docs.values()) {
            const at = earliestDate(valuesAtPath(doc, path));
            if (at !== undefined && at + seconds * 1000 <= now) expired.push(doc);
          }
          for (const doc of expired) this.engine.remove(coll, doc);
          deleted += expired.length;
        }
      }
    }
    if (deleted) this.engine.commit();
    return deleted;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

function earliestDate(values: unknown[]): number | undefined {
  let min: number | undefined;
  for (const v of values.flat()) {
    if (v instanceof Date && !Number.isNaN(v.getTime()) && (min === undefined || v.getTime() < min))
      min = v.getTime();
  }
  return min;
}
