/**
 * Account e-mails go through a queue in the database (`mail_queue`, mail-queue-model.ts): a
 * request only queues its mail (`mailer.send`, `mailer.request`), in its transaction if it has
 * one, and answers at once; a worker in every API process sends what is due.
 *
 * - Claiming is one atomic `findOneAndUpdate` that takes a lease (`MAIL_LEASE_MS`): of several
 *   processes exactly one gets each mail. A process that stops while sending leaves the mail
 *   `sending` with a lease that runs out; any worker then claims it again.
 * - A failed attempt waits `MAIL_RETRY_BASE_MS`, doubled after each failure up to
 *   `MAIL_RETRY_MAX_MS`; after `MAIL_MAX_ATTEMPTS` the mail is `failed` and the admin sees it
 *   (`troubled`, with `retry`).
 * - Waking: queuing publishes a `mail.queued` event in the same transaction; the app wakes its
 *   worker when it hears one (its own right after the commit, another process's through the
 *   outbox's change stream), so a mail is sent as soon as it is committed and no one polls. After
 *   each round the worker sleeps until the earliest mail due (a retry, a lease that runs out), but
 *   never longer than `MAIL_IDLE_CHECK_MS`: idle, that is one indexed query a minute.
 * - Times are the app's clock (`ctx.clock`): tests move it to make a retry due, then `drain()`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from './config';
import { logFailure } from './errors';
import type { Logger } from './logger';
import { trusted, type mongo, type QueryFilter } from 'mongoose';
import type { MailState, QueuedMailDoc, QueuedMailModel } from './mail-queue-model';
import type { Mail, Mailer, MailTransport } from './mailer';

/** Writes the mail a request of its kind asks for, or null when there is nothing to send. */
export type MailComposer = (to: string) => Promise<Mail | null>;

/** Sent mails are kept this long (the record of what went out, without its content). */
export const SENT_MAIL_TTL_MS = 24 * 60 * 60_000;
/** Failed mails are kept this long for the admin to see and retry. */
export const FAILED_MAIL_TTL_MS = 30 * 24 * 60 * 60_000;
/** The longest error message kept per mail. */
const MAX_ERROR_LENGTH = 500;
/** After the database failed the worker, it tries again this much later. */
const AFTER_DATABASE_ERROR_MS = 5_000;

export interface MailQueueOptions {
  model: QueuedMailModel;
  transport: MailTransport;
  settings: Config['mail'];
  /** The composers of `mailer.request`, by kind. */
  composers: Readonly<Record<string, MailComposer>>;
  /** The app's time. */
  now(): Date;
  /** An id for a new mail. */
  nextId(): Promise<number>;
  /** The app's transaction (joining the one under way). */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /** Publishes `mail.queued` in the transaction under way. */
  announce(): void;
  /** This worker's name on the leases it takes (unique per app). */
  owner: string;
  logger: Logger;
}

/** A mail the admin should see: failed, or failing and to be tried again. */
export interface TroubledMail {
  id: number;
  to: string;
  subject: string | null;
  status: 'retrying' | 'sending' | 'failed';
  attempts: number;
  lastError: string;
  nextAttemptAt: Date | null;
  createdAt: Date;
}

export interface MailQueue {
  /** What use cases call (ctx.mailer). */
  readonly mailer: Mailer;
  /** Starts the worker (an app serving requests; a script only queues). */
  start(): void;
  /** Sends what is due now; resolves once the round that does it has ended. */
  wake(): Promise<void>;
  /**
   * Resolves once nothing is due: every mail due now has been attempted by this worker, and no
   * other worker is still sending one (tests read the outbox after it).
   */
  drain(): Promise<void>;
  /** Mails that failed, or failed at least once and wait to be tried again; newest first. */
  troubled(page: number, pageSize: number): Promise<{ items: TroubledMail[]; total: number }>;
  /** A failed or waiting mail is tried again now, with its attempts counted afresh; null: none. */
  retry(id: number): Promise<TroubledMail | null>;
  /** Stops the worker, after the mail it is sending. */
  close(): Promise<void>;
  /** This worker's attempts since it started, by outcome (the metrics). */
  attempts(): Readonly<Record<AttemptOutcome, number>>;
  /** The mails in the queue (every process's) by state: waiting to be sent, being sent, failed. */
  depth(): Promise<Record<'queued' | 'sending' | 'failed', number>>;
}

/** How an attempt ended: sent, failed to be tried again, or failed for good. */
export type AttemptOutcome = 'sent' | 'retry' | 'failed';

/** A mail in these states is due at its `nextAttemptAt` (queued) or once its lease ran out. */
const DUE_STATES: MailState[] = ['queued', 'sending'];

const TROUBLED: QueryFilter<QueuedMailDoc> = {
  $or: [
    { state: 'failed' },
    {
      state: trusted({ $in: ['queued', 'sending'] as MailState[] }),
      lastError: trusted({ $ne: null }),
    },
  ],
};

function presentTroubled(doc: QueuedMailDoc): TroubledMail {
  return {
    id: doc._id,
    to: doc.to,
    subject: doc.subject,
    status: doc.state === 'failed' ? 'failed' : doc.state === 'sending' ? 'sending' : 'retrying',
    attempts: doc.attempts,
    lastError: doc.lastError ?? '',
    nextAttemptAt: doc.state === 'failed' ? null : doc.nextAttemptAt,
    createdAt: doc.createdAt,
  };
}

/** The wait before attempt `attempts + 1`, after `attempts` failed ones: doubling, capped. */
export function retryDelayMs(settings: Config['mail'], attempts: number): number {
  return Math.min(settings.retryBaseMs * 2 ** Math.max(0, attempts - 1), settings.retryMaxMs);
}

function errorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.slice(0, MAX_ERROR_LENGTH) || 'Unknown error';
}

export function createMailQueue(options: MailQueueOptions): MailQueue {
  const { model: QueuedMail, transport, settings, composers, owner, logger } = options;
  const now = () => options.now();
  // The worker's own bookkeeping goes to the driver's collection behind mongoose's back (no
  // debug line, no hooks), as the event stream's does: it is no request's work.
  const queued = () =>
    QueuedMail.db.db!.collection<QueuedMailDoc>(QueuedMail.collection.collectionName);
  let started = false;
  let closed = false;
  /** The round under way, and whether another was asked for while it ran. */
  let round: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  const outcomes: Record<AttemptOutcome, number> = { sent: 0, retry: 0, failed: 0 };

  const enqueue = (fields: Partial<QueuedMailDoc> & Pick<QueuedMailDoc, 'to'>) =>
    options.transaction(async () => {
      const at = now();
      const _id = await options.nextId();
      const fresh = {
        _id,
        state: 'queued' as const,
        attempts: 0,
        createdAt: at,
        nextAttemptAt: at,
      };
      if (fields.kind) {
        // A request still waiting for its turn already asks for the same mail.
        await QueuedMail.updateOne(
          { kind: fields.kind, to: fields.to, state: 'queued' },
          { $setOnInsert: { ...fresh, ...fields } },
          { upsert: true },
        );
      } else {
        await QueuedMail.create([{ ...fresh, ...fields }]);
      }
      options.announce();
    });

  const mailer: Mailer = {
    send: (mail) =>
      enqueue({
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        links: mail.links,
      }),
    request: (kind, to) => enqueue({ to, kind }),
  };

  /** Takes the mail due first, if any, with a lease; counts the attempt. */
  const claim = () => {
    const at = now();
    return queued().findOneAndUpdate(
      { state: { $in: DUE_STATES }, nextAttemptAt: { $lte: at } },
      {
        $set: {
          state: 'sending',
          leaseOwner: owner,
          nextAttemptAt: new Date(at.getTime() + settings.leaseMs),
        },
        $inc: { attempts: 1 },
      },
      { sort: { nextAttemptAt: 1 }, returnDocument: 'after' },
    );
  };

  /** Updates the mail only while this worker still holds its lease. */
  const settle = (id: number, update: mongo.UpdateFilter<QueuedMailDoc>) =>
    queued().updateOne({ _id: id, state: 'sending', leaseOwner: owner }, update);

  const attempt = async (doc: QueuedMailDoc) => {
    let mail: Mail | null = null;
    try {
      if (doc.attempts > settings.maxAttempts) {
        // Its last attempt's process stopped while sending it (a mail that stops the process?).
        throw new Error('The process sending this mail stopped during its last attempt');
      }
      if (doc.kind === null) {
        mail = {
          to: doc.to,
          subject: doc.subject ?? '',
          text: doc.text ?? '',
          html: doc.html ?? '',
          links: doc.links ?? {},
        };
      } else {
        // Written afresh at each attempt: its link (a new token) is never stored here, and is
        // as fresh as the attempt that finally delivers it.
        const compose = composers[doc.kind];
        if (!compose) throw new Error(`No composer for mails of kind "${doc.kind}"`);
        mail = await compose(doc.to);
        if (!mail) {
          // Nothing to send (no such account): the request leaves no trace.
          await queued().deleteOne({ _id: doc._id, leaseOwner: owner });
          return;
        }
      }
      await transport.deliver(mail);
    } catch (err) {
      const failed = doc.attempts >= settings.maxAttempts;
      const at = now();
      await settle(doc._id, {
        $set: {
          ...(mail ? { subject: mail.subject } : {}),
          state: failed ? 'failed' : 'queued',
          leaseOwner: null,
          lastError: errorText(err),
          nextAttemptAt: failed
            ? null
            : new Date(at.getTime() + retryDelayMs(settings, doc.attempts)),
          expiresAt: failed ? new Date(at.getTime() + FAILED_MAIL_TTL_MS) : null,
        },
      });
      outcomes[failed ? 'failed' : 'retry'] += 1;
      logger.warn(
        { err, mailId: doc._id, attempts: doc.attempts, failed },
        failed ? 'e-mail failed for good' : 'e-mail failed: it will be tried again',
      );
      return;
    }
    outcomes.sent += 1;
    const at = now();
    // What the mail said (its links carry tokens) goes; who it went to and when stays a day.
    await settle(doc._id, {
      $set: {
        state: 'sent',
        subject: mail.subject,
        sentAt: at,
        nextAttemptAt: null,
        leaseOwner: null,
        expiresAt: new Date(at.getTime() + SENT_MAIL_TTL_MS),
      },
      $unset: { text: 1, html: 1, links: 1 },
    });
  };

  /** Sleeps until the earliest mail due, at most `idleCheckMs`. */
  const schedule = async (afterError: boolean) => {
    let wait = settings.idleCheckMs;
    if (afterError) wait = Math.min(wait, AFTER_DATABASE_ERROR_MS);
    else {
      const next = await queued().findOne(
        { state: { $in: DUE_STATES } },
        { projection: { nextAttemptAt: 1 }, sort: { nextAttemptAt: 1 } },
      );
      if (next?.nextAttemptAt) {
        wait = Math.min(wait, Math.max(0, next.nextAttemptAt.getTime() - now().getTime()));
      }
    }
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => void wake(), wait);
    timer.unref();
  };

  /** Claims and sends until nothing is due, again while wakes arrive, then sleeps. */
  const runRound = async () => {
    for (;;) {
      again = false;
      let failed = false;
      try {
        for (let doc = await claim(); doc && !closed; doc = await claim()) await attempt(doc);
      } catch (err) {
        failed = true;
        logFailure(logger, err, 'mail queue: the database failed the worker; trying again soon');
      }
      if (closed) return;
      if (again && !failed) continue;
      if (started) {
        await schedule(failed).catch((err: unknown) => {
          logFailure(logger, err, 'mail queue: next round not scheduled; trying again soon');
          timer = setTimeout(() => void wake(), AFTER_DATABASE_ERROR_MS);
          timer.unref();
        });
      }
      // A wake that came while this round slept on its schedule still gets its claims.
      if (!again || failed || closed) return;
    }
  };

  function wake(): Promise<void> {
    if (closed) return Promise.resolve();
    if (round) {
      // The round under way claims again before it ends.
      again = true;
      return round;
    }
    const current = runRound().finally(() => {
      round = undefined;
    });
    round = current;
    return current;
  }

  return {
    mailer,
    start() {
      if (started) return;
      started = true;
      wake();
    },
    wake: () => (started ? wake() : Promise.resolve()),
    async drain() {
      for (;;) {
        await wake();
        const sendingElsewhere = await queued().findOne(
          { state: 'sending', leaseOwner: { $ne: owner }, nextAttemptAt: { $gt: now() } },
          { projection: { _id: 1 } },
        );
        if (!sendingElsewhere || closed) return;
        await sleep(25);
      }
    },
    async troubled(page, pageSize) {
      const [docs, total] = await Promise.all([
        QueuedMail.find(TROUBLED, { text: 0, html: 0, links: 0 })
          .sort({ createdAt: -1, _id: -1 })
          .skip((page - 1) * pageSize)
          .limit(pageSize)
          .lean<QueuedMailDoc[]>(),
        QueuedMail.countDocuments(TROUBLED),
      ]);
      return { items: docs.map(presentTroubled), total };
    },
    async retry(id) {
      const doc = await options.transaction(async () => {
        const updated = await QueuedMail.findOneAndUpdate(
          { _id: id, state: trusted({ $in: ['failed', 'queued'] as MailState[] }) },
          { $set: { state: 'queued', attempts: 0, nextAttemptAt: now(), expiresAt: null } },
          { returnDocument: 'after', projection: { text: 0, html: 0, links: 0 } },
        ).lean<QueuedMailDoc>();
        if (updated) options.announce();
        return updated;
      });
      return doc ? presentTroubled(doc) : null;
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      while (round) await round;
    },
    attempts: () => ({ ...outcomes }),
    async depth() {
      const counts = await queued()
        .aggregate<{ _id: MailState; n: number }>([
          { $match: { state: { $in: ['queued', 'sending', 'failed'] } } },
          { $group: { _id: '$state', n: { $sum: 1 } } },
        ])
        .toArray();
      const depth = { queued: 0, sending: 0, failed: 0 };
      for (const { _id, n } of counts) if (_id in depth) depth[_id as keyof typeof depth] = n;
      return depth;
    },
  };
}
