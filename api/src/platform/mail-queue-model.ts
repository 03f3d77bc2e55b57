import { Schema, type Connection, type Model } from 'mongoose';

/**
 * One account e-mail on its way (mail-queue.ts): queued by a request (in its transaction), sent
 * by whichever API process's worker claims it first.
 *
 * - `queued`: waiting until `nextAttemptAt` (at once, or after a failed attempt's back-off).
 * - `sending`: claimed by the worker `leaseOwner` until `nextAttemptAt` (its lease); a process
 *   that stopped meanwhile leaves it to be claimed again once the lease has run out.
 * - `sent`: delivered; only what the admin list shows is kept, until `expiresAt` (TTL).
 * - `failed`: given up after the last attempt; kept for the admin until `expiresAt`.
 *
 * A mail is either written by its sender (`subject`, `text`, `html`, `links`) or requested by
 * `kind` (e.g. a password reset) and written when it is sent by the composer of that kind, which
 * may find there is nothing to send (no account has that address): the request then leaves no trace.
 */
export type MailState = 'queued' | 'sending' | 'sent' | 'failed';

export interface QueuedMailDoc {
  _id: number;
  state: MailState;
  to: string;
  /** The composer that writes the mail when it is sent; null: written by its sender. */
  kind: string | null;
  subject: string | null;
  text: string | null;
  html: string | null;
  links: Record<string, string> | null;
  /** Attempts started (counted when claimed, so a process that dies sending it counts too). */
  attempts: number;
  /** queued: when it may be sent; sending: when the lease runs out. Null once sent or failed. */
  nextAttemptAt: Date | null;
  leaseOwner: string | null;
  /** Why the last attempt failed (the transport's message, never the mail). */
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
  /** Removed by the database after this time (sent and failed mails only). */
  expiresAt: Date | null;
}

const queuedMailSchema = new Schema<QueuedMailDoc>(
  {
    _id: { type: Number, required: true },
    state: { type: String, required: true, enum: ['queued', 'sending', 'sent', 'failed'] },
    to: { type: String, required: true },
    kind: { type: String, default: null },
    subject: { type: String, default: null },
    text: { type: String, default: null },
    html: { type: String, default: null },
    links: { type: Schema.Types.Mixed, default: null },
    attempts: { type: Number, required: true, default: 0 },
    nextAttemptAt: { type: Date, default: null },
    leaseOwner: { type: String, default: null },
    lastError: { type: String, default: null },
    createdAt: { type: Date, required: true },
    sentAt: { type: Date, default: null },
    expiresAt: { type: Date, default: null, index: { expireAfterSeconds: 0 } },
  },
  { versionKey: false },
);
// The worker's claim and its wake-up time: the earliest mail due, queued or with a lapsed lease.
queuedMailSchema.index({ state: 1, nextAttemptAt: 1 });
// A request of a kind for an address waiting to be sent is not queued twice.
queuedMailSchema.index({ kind: 1, to: 1, state: 1 });

export type QueuedMailModel = Model<QueuedMailDoc>;

/** The mail queue's model on `connection` (each app binds its own: see src/models.ts). */
export function queuedMailModel(connection: Connection): QueuedMailModel {
  return connection.model<QueuedMailDoc>('QueuedMail', queuedMailSchema, 'mail_queue');
}
