/**
 * A counter of the commands a server runs, for profiling (off unless `EMBEDDED_MONGO_STATS` names
 * a file): by command name and collection, with `stream` for change-stream getMores and `txn`
 * for statements inside a transaction, plus how finds were planned. Every second the cumulative
 * counts are appended to the file as one JSON line with `process.hrtime` in µs (the clock of a
 * `--cpu-prof` profile's timestamps), so a profile's window can be matched with the load, and the
 * process's memory (`mb`: rss, heapUsed, heapTotal, external).
 */
import fs from 'node:fs';

export class CommandStats {
  readonly counts = new Map<string, number>();
  private timer: NodeJS.Timeout;

  constructor(private readonly file: string) {
    this.timer = setInterval(() => this.flush(), 1000);
    this.timer.unref();
  }

  add(key: string, n = 1): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + n);
  }

  flush(): void {
    const m = process.memoryUsage();
    const line = {
      t: Number(process.hrtime.bigint() / 1000n),
      counts: Object.fromEntries(this.counts),
      // The process's memory in MB: resident, V8 heap used and total, outside the heap.
      mb: {
        rss: Math.round(m.rss / 1e6),
        heapUsed: Math.round(m.heapUsed / 1e6),
        heapTotal: Math.round(m.heapTotal / 1e6),
        external: Math.round(m.external / 1e6),
      },
    };
    fs.appendFileSync(this.file, JSON.stringify(line) + '\n');
  }

  close(): void {
    clearInterval(this.timer);
    this.flush();
  }
}

/** The process's counter, when EMBEDDED_MONGO_STATS is set. */
export const commandStats: CommandStats | undefined = process.env.EMBEDDED_MONGO_STATS
  ? new CommandStats(process.env.EMBEDDED_MONGO_STATS)
  : undefined;
