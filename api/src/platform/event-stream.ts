/**
 * Every API process's one change stream: the inserts into the outbox (outbox-model.ts), each one
 * committed transaction's events, handed to this app's subscribers in commit order. The app's own
 * transactions are skipped (it delivered them itself after their commit: transactions.ts).
 *
 * The stream's position (its last resume token) is saved in the database under the consumer's
 * name, about once a second, so a process started again under the same name resumes where it
 * stopped. A stream that fails resumes after a second from where it was; events it cannot resume
 * from (the database no longer holds them: ChangeStreamHistoryLost, or an invalidated stream) are
 * lost, so the subscribers are told to start afresh (`reset`) and the stream follows from now.
 * A failure resets too: until the stream resumes, the caches cannot hear of other processes'
 * writes, so they forget everything (the replay after the resume forgets again what it changes).
 */
import { mongo } from 'mongoose';
import { isDatabaseUnavailable, logFailure } from './errors';
import type { Logger } from './logger';
import type { EventPositionModel, OutboxDoc, OutboxModel } from './outbox-model';

/** How long a failed stream waits before it follows the outbox again. */
const REOPEN_MS = 1_000;
/** How often the stream's position is saved at most. */
const SAVE_POSITION_MS = 1_000;

export interface EventStreamOptions<E> {
  Outbox: OutboxModel;
  Position: EventPositionModel;
  /** The name the position is saved under (API_INSTANCE). */
  consumer: string;
  /** This app's own origin: its own transactions' events are not delivered again. */
  origin: string;
  deliver(events: E[]): void;
  /** Events may have been missed: subscribers start afresh. */
  reset(): void;
  logger: Logger;
}

export interface EventStream {
  /** Resolves once the stream is established: every transaction committed from then on is heard. */
  ready(): Promise<void>;
  /**
   * Resolves once every transaction committed before the call (by any process) has been handed
   * to the subscribers: a marker written to the outbox now comes back after all of them, since
   * the stream follows commit order.
   */
  caughtUp(): Promise<void>;
  /**
   * Whether the stream is established and has not failed since: the app hears every process's
   * commits (its readiness, health.ts). False before `ready()`, while it waits to follow again
   * after a failure, and once closed.
   */
  following(): boolean;
  /** Stops following (saving the position first). */
  close(): Promise<void>;
}

type Change = mongo.ChangeStreamDocument<OutboxDoc>;

const WATCHED = [{ $match: { operationType: { $in: ['insert', 'drop', 'invalidate'] } } }];

/** Errors after which the stream cannot resume from its token: history lost, invalid token. */
function cannotResume(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 286 || code === 260 || code === 280;
}

export function followEventStream<E>(options: EventStreamOptions<E>): EventStream {
  const { Outbox, Position, consumer, origin, logger } = options;
  let closed = false;
  /** The stream failed and has not followed again since (logged once it does). */
  let failing = false;
  /** It failed because the database went away (an outage db.ts logs itself). */
  let failedInOutage = false;
  let changes: mongo.ChangeStream<OutboxDoc, Change> | undefined;
  /** The stream of `changes` has made its first round trip: it follows. */
  let streamFollows = false;
  let established: Promise<void> | undefined;
  /** The last event handled (undefined: not known yet, read the saved one first). */
  let token: unknown;
  let saved: unknown;
  let saveTimer: NodeJS.Timeout | undefined;
  let reopenTimer: NodeJS.Timeout | undefined;
  let loaded = false;
  /** The markers `caughtUp` waits for, by outbox `_id`. */
  const markers = new Map<string, () => void>();
  const releaseMarkers = () => {
    for (const release of markers.values()) release();
    markers.clear();
  };
  // Saved behind mongoose's back (no debug line, no hooks): it is bookkeeping, not a request's.
  const positions = () => Position.db.db!.collection(Position.collection.collectionName);

  const savePosition = async () => {
    saveTimer = undefined;
    if (token === undefined || token === saved) return;
    const at = token;
    try {
      await positions().updateOne(
        { _id: consumer } as never,
        { $set: { token: at, at: new Date() } },
        { upsert: true },
      );
      saved = at;
    } catch (err) {
      logger.debug({ err }, 'event stream: position not saved');
    }
  };
  const scheduleSave = () => {
    if (saveTimer || closed) return;
    saveTimer = setTimeout(() => void savePosition(), SAVE_POSITION_MS);
    saveTimer.unref();
  };

  const handle = (change: Change) => {
    token = change._id;
    scheduleSave();
    if (change.operationType === 'insert') {
      const doc = change.fullDocument;
      if (doc.origin !== origin) options.deliver(doc.events as E[]);
      const marker = markers.get(doc._id.toHexString());
      if (marker) {
        markers.delete(doc._id.toHexString());
        marker();
      }
      return;
    }
    // The outbox was dropped (a test's database), or the stream invalidated: follow afresh.
    throw Object.assign(new Error(`event stream: ${change.operationType}`), { code: 260 });
  };

  const open = async (): Promise<void> => {
    if (!loaded) {
      loaded = true;
      const position = await positions().findOne({ _id: consumer } as never);
      token = position?.token ?? undefined;
      saved = token;
    }
    const stream = Outbox.collection.watch<OutboxDoc, Change>(WATCHED, {
      ...(token !== undefined ? { resumeAfter: token } : {}),
    });
    changes = stream;
    try {
      // The first round trip establishes the cursor: from then on no commit is missed.
      const first = await stream.tryNext();
      if (closed) {
        await stream.close().catch(() => undefined);
        return;
      }
      if (first) handle(first);
    } catch (err) {
      changes = undefined;
      await stream.close().catch(() => undefined);
      throw err;
    }
    streamFollows = true;
    if (failing) {
      failing = false;
      failedInOutage = false;
      logger.info('event stream: following again');
    }
    void pump(stream);
  };

  const pump = async (stream: mongo.ChangeStream<OutboxDoc, Change>) => {
    try {
      while (changes === stream) handle(await stream.next());
    } catch (err) {
      if (changes !== stream || closed) return; // closed on purpose
      changes = undefined;
      established = undefined;
      await stream.close().catch(() => undefined);
      failed(err);
    }
  };

  /**
   * The database no longer holds the events after the stream's position (its history, the
   * oplog, moved on, or a restarted embedded database started a new one): subscribers start
   * afresh. After an outage that is expected of the embedded database (and nothing was committed
   * meanwhile), so it is not another warning; otherwise it is one. No stack either way.
   */
  const historyLost = (err: unknown) => {
    const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
    const fields = { code, cause: message };
    if (failedInOutage)
      logger.info(fields, 'event stream: cannot resume after the outage; following from now');
    else logger.warn(fields, 'event stream: cannot resume; following from now');
  };

  /** Follows again after a while, from the last event when it can; subscribers start afresh. */
  const failed = (err: unknown) => {
    streamFollows = false;
    if (closed) return;
    if (cannotResume(err)) {
      historyLost(err);
      token = undefined;
    } else {
      // Retried every second: during a database outage, a debug line each time (logFailure).
      logFailure(logger, err, 'event stream failed; following again in a second');
      failedInOutage = typeof err === 'object' && err !== null && isDatabaseUnavailable(err);
    }
    failing = true;
    options.reset();
    // Whoever waits to be caught up: the subscribers start afresh, nothing is left behind.
    releaseMarkers();
    if (reopenTimer) return;
    reopenTimer = setTimeout(() => {
      reopenTimer = undefined;
      ready().catch(() => undefined);
    }, REOPEN_MS);
    reopenTimer.unref();
  };

  const ready = (): Promise<void> => {
    if (closed) return Promise.reject(new Error('event stream: closed'));
    if (!established) {
      const attempt = open().catch(async (err: unknown) => {
        if (!cannotResume(err) || token === undefined) throw err;
        // The saved position is gone from the database's history: from now, afresh.
        historyLost(err);
        token = undefined;
        options.reset();
        releaseMarkers();
        await open();
      });
      established = attempt;
      attempt.catch((err: unknown) => {
        if (established === attempt) established = undefined;
        failed(err);
      });
    }
    return established;
  };

  return {
    ready,
    async caughtUp() {
      await ready();
      const _id = new mongo.ObjectId();
      const seen = new Promise<void>((resolve) => markers.set(_id.toHexString(), resolve));
      await Outbox.collection.insertOne({ _id, origin, at: new Date(), events: [] } as never);
      await seen;
    },
    following: () => streamFollows && !closed,
    async close() {
      closed = true;
      streamFollows = false;
      clearTimeout(reopenTimer);
      clearTimeout(saveTimer);
      const stream = changes;
      changes = undefined;
      await savePosition();
      releaseMarkers();
      await stream?.close().catch(() => undefined);
    },
  };
}
