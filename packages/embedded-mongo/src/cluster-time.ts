/**
 * The replica set's logical clock: every committed change gets a new, strictly increasing
 * cluster time (a BSON Timestamp of seconds and an increment, as mongod's oplog times are), which
 * replies carry as `$clusterTime` / `operationTime` and change events as `clusterTime`.
 */
import { Binary, Long, Timestamp } from 'bson';

/** An unsigned signature: this server has no keys (no authentication), so the hash is zeros. */
const SIGNATURE = { hash: new Binary(Buffer.alloc(20)), keyId: Long.fromNumber(0) };

export class ClusterClock {
  private seconds = Math.floor(Date.now() / 1000);
  private increment = 0;

  constructor() {
    this.tick();
  }

  /** The time of the last change (or of the start). */
  last = new Timestamp({ t: 0, i: 0 });

  /** A new cluster time, later than every earlier one even if the wall clock goes back. */
  tick(): Timestamp {
    const now = Math.floor(Date.now() / 1000);
    if (now > this.seconds) {
      this.seconds = now;
      this.increment = 1;
    } else this.increment++;
    this.last = new Timestamp({ t: this.seconds, i: this.increment });
    return this.last;
  }

  /** The `$clusterTime` document replies carry. */
  gossip(): { clusterTime: Timestamp; signature: typeof SIGNATURE } {
    return { clusterTime: this.last, signature: SIGNATURE };
  }
}
