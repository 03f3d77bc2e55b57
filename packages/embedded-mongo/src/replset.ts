/**
 * The server as the primary of a one-member replica set (default name `rs0`): what `hello`
 * says about the set, `$clusterTime` / `operationTime` on every reply, and the routing of
 * commands to sessions and transactions (transactions.ts), change streams (change-streams.ts)
 * and the plain command handlers (commands/). The TTL monitor (ttl.ts) runs beside it.
 */
import { Long, ObjectId } from 'bson';
import { ChangeStreams, Oplog } from './change-streams';
import { ClusterClock } from './cluster-time';
import { runCommand, type CommandContext } from './commands/dispatch';
import type { Engine } from './engine';
import { errorReply, Transactions } from './transactions';
import { TtlMonitor } from './ttl';
import { isPlainObject, type Doc } from './values';

export interface ReplicaSetOptions {
  /** The replica set's name (`setName`); default `rs0`. */
  replSetName?: string;
  /** `host:port` the member calls itself (`me`, `hosts`, `primary`). */
  me: string;
  /** How often the TTL monitor runs; default 60 000 ms, as mongod's ttlMonitorSleepSecs. */
  ttlMonitorIntervalMs?: number;
  /** How many changes the oplog keeps for change streams to resume from; default 10 000. */
  oplogEntries?: number;
  /** How long a transaction may stay open; default 60 000 ms, as mongod. */
  transactionLifetimeMs?: number;
  /** How long a snapshot read's point in time is kept without a read at it; default 5 minutes. */
  snapshotIdleMs?: number;
}

/** Writes a driver may retry with the same txnNumber (retryable writes). */
const RETRYABLE = new Set(['insert', 'update', 'delete', 'findAndModify', 'findandmodify']);
const HELLO = new Set(['hello', 'ismaster', 'isMaster']);
/**
 * Errors after which the command may be tried again (mongod's "retryable" codes: network, shutdown
 * and step-down errors), which it labels RetryableWriteError on retryable writes and commits,
 * TransientTransactionError inside transactions and ResumableChangeStreamError on change streams.
 */
/** WriteConflict, LockTimeout, SnapshotUnavailable, PreparedTransactionInProgress. */
const TRANSIENT_CODES = new Set([112, 24, 246, 267]);
const RETRYABLE_CODES = new Set([
  6, 7, 63, 89, 91, 133, 150, 189, 234, 262, 9001, 10107, 11600, 11602, 13388, 13435, 13436,
]);
/** The election id of the only election this set ever had. */
const ELECTION_ID = new ObjectId('7fffffff0000000000000001');

export class ReplicaSet {
  readonly clock = new ClusterClock();
  readonly oplog: Oplog;
  readonly transactions: Transactions;
  readonly streams: ChangeStreams;
  readonly ttl: TtlMonitor;
  readonly name: string;
  /** `host:port` the member calls itself (`me`, `hosts`, `primary`). */
  me: string;
  private readonly processId = new ObjectId();
  private readonly waits = new Set<() => void>();

  constructor(
    private readonly engine: Engine,
    private readonly options: ReplicaSetOptions,
  ) {
    this.name = options.replSetName ?? 'rs0';
    this.me = options.me;
    this.oplog = new Oplog(engine, this.clock, options.oplogEntries);
    this.transactions = new Transactions(
      engine,
      options.transactionLifetimeMs,
      this.clock,
      options.snapshotIdleMs,
    );
    this.streams = new ChangeStreams(engine, this.oplog);
    this.ttl = new TtlMonitor(engine, options.ttlMonitorIntervalMs);
  }

  /** Runs one command; a reply that waits (tailing getMore, awaitable hello) is a promise. */
  run(body: Doc, defaultDb: string, ctx: CommandContext): Doc | Promise<Doc> {
    const name = Object.keys(body)[0] ?? '';
    let reply: Doc | Promise<Doc>;
    try {
      const exec = (cmd: Doc) => this.dispatch(cmd, name, defaultDb, ctx) as Doc;
      if (
        name === 'commitTransaction' ||
        name === 'abortTransaction' ||
        (body.txnNumber !== undefined && body.autocommit === false)
      )
        reply = this.transactions.inTransaction(body, name, exec);
      else if (body.txnNumber !== undefined && RETRYABLE.has(name) && isPlainObject(body.lsid))
        reply = this.transactions.retryable(body, exec);
      else if (isPlainObject(body.readConcern) && body.readConcern.level === 'snapshot')
        reply = this.transactions.snapshotRead(body, name, exec);
      else reply = this.dispatch(body, name, defaultDb, ctx);
    } catch (e) {
      reply = errorReply(e);
    }
    const done = (r: Doc) => this.stamp(this.labelled(body, r));
    return reply instanceof Promise ? reply.then(done) : done(reply);
  }

  /** Adds the error labels mongod gives a failed command (kept when the reply has its own). */
  labelled(body: Doc, reply: Doc, injected = false): Doc {
    const wce = isPlainObject(reply.writeConcernError) ? reply.writeConcernError : undefined;
    if ((reply.ok === 1 && !wce) || Array.isArray(reply.errorLabels)) return reply;
    const name = Object.keys(body)[0] ?? '';
    const code = reply.ok === 1 ? undefined : Number(reply.code);
    const retryable = (c: unknown) => RETRYABLE_CODES.has(Number(c));
    const commitOrAbort = name === 'commitTransaction' || name === 'abortTransaction';
    const inTransaction = body.autocommit === false && !commitOrAbort;
    const retryableWrite =
      body.txnNumber !== undefined && body.autocommit === undefined && RETRYABLE.has(name);
    const labels: string[] = [];
    if ((retryableWrite || commitOrAbort) && (retryable(code) || retryable(wce?.code)))
      labels.push('RetryableWriteError');
    // mongod's isTransientTransactionError: conflicts, lock timeouts and a lost transaction; in a
    // statement (not a commit) also anything worth retrying.
    const transient =
      code !== undefined &&
      (TRANSIENT_CODES.has(code) || (code === 251 && !wce) || (inTransaction && retryable(code)));
    if ((inTransaction || commitOrAbort) && transient) labels.push('TransientTransactionError');
    // failCommand's getMore errors stay unlabelled: the drivers' tests label them themselves.
    if (name === 'getMore' && !injected && code !== undefined && (retryable(code) || code === 43))
      if (this.streams.has(Number(body.getMore))) labels.push('ResumableChangeStreamError');
    return labels.length ? { ...reply, errorLabels: labels } : reply;
  }

  /** A reply a fail point made up: labelled and stamped like any other. */
  failed(body: Doc, reply: Doc, injected: boolean): Doc {
    return this.stamp(this.labelled(body, { ...reply }, injected));
  }

  private stamp(reply: Doc): Doc {
    reply.$clusterTime = this.clock.gossip();
    reply.operationTime = this.clock.last;
    return reply;
  }

  private dispatch(
    body: Doc,
    name: string,
    defaultDb: string,
    ctx: CommandContext,
  ): Doc | Promise<Doc> {
    const db = typeof body.$db === 'string' ? body.$db : defaultDb;
    if (HELLO.has(name)) return this.hello(body, defaultDb, ctx);
    if (name === 'aggregate' && ChangeStreams.isChangeStream(body)) {
      return this.streams.open(body, db, ctx.nextCursorId);
    }
    if (name === 'getMore' && this.streams.has(Number(body.getMore)))
      return this.streams.getMore(body);
    if (name === 'killCursors' && Array.isArray(body.cursors)) {
      const ours = body.cursors.filter((id) => this.streams.kill(Number(id)));
      if (ours.length) {
        const rest = runCommand(
          { ...body, cursors: body.cursors.filter((id) => !ours.includes(id)) },
          defaultDb,
          ctx,
        );
        if (Array.isArray(rest.cursorsKilled)) rest.cursorsKilled.push(...ours);
        return rest;
      }
    }
    if (name === 'endSessions' && Array.isArray(body.endSessions))
      this.transactions.endSessions(body.endSessions);
    this.oplog.replacing = isReplacement(name, body);
    try {
      return runCommand(body, defaultDb, ctx);
    } finally {
      this.oplog.replacing = false;
    }
  }

  /** hello as the set's primary; an awaitable hello (streaming monitor) waits maxAwaitTimeMS. */
  private hello(body: Doc, defaultDb: string, ctx: CommandContext): Doc | Promise<Doc> {
    const answer = () => ({ ...runCommand(body, defaultDb, ctx), ...this.helloFields() });
    const tv = body.topologyVersion;
    if (
      !isPlainObject(tv) ||
      body.maxAwaitTimeMS === undefined ||
      !(tv.processId instanceof ObjectId) ||
      !tv.processId.equals(this.processId)
    )
      return answer();
    // Nothing about this topology ever changes: answer when the wait is over.
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waits.delete(done);
        resolve(answer());
      };
      const timer = setTimeout(done, Number(body.maxAwaitTimeMS));
      timer.unref();
      this.waits.add(done);
    });
  }

  helloFields(): Doc {
    const me = this.me;
    const opTime = { ts: this.clock.last, t: Long.fromNumber(1) };
    const now = new Date();
    return {
      hosts: [me],
      setName: this.name,
      setVersion: 1,
      isWritablePrimary: true,
      secondary: false,
      primary: me,
      me,
      electionId: ELECTION_ID,
      topologyVersion: { processId: this.processId, counter: Long.fromNumber(0) },
      lastWrite: {
        opTime,
        lastWriteDate: now,
        majorityOpTime: opTime,
        majorityWriteDate: now,
      },
      logicalSessionTimeoutMinutes: 30,
    };
  }

  close(): void {
    this.ttl.stop();
    this.oplog.close();
    for (const w of [...this.waits]) w();
  }
}

/** Whether the command replaces whole documents (its changes are `replace` events). */
function isReplacement(name: string, body: Doc): boolean {
  const isReplacementDoc = (u: unknown) =>
    isPlainObject(u) && !Object.keys(u).some((k) => k.startsWith('$'));
  if (name === 'update' && Array.isArray(body.updates))
    return (
      body.updates.length > 0 &&
      body.updates.every((s) => isPlainObject(s) && isReplacementDoc(s.u))
    );
  if (name === 'findAndModify' || name === 'findandmodify') return isReplacementDoc(body.update);
  return false;
}
