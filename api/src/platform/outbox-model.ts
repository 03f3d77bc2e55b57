import { Schema, type Connection, type Model, type Types } from 'mongoose';

/**
 * One committed transaction's domain events, in the order they were published, written in that
 * transaction (transactions.ts). Every API process follows the inserts with one change stream
 * (event-stream.ts). Kept a day: a process whose resume point is older starts afresh.
 */
export interface OutboxDoc {
  _id: Types.ObjectId;
  /** The publishing app (a random id per app): it delivered these itself and skips their echo. */
  origin: string;
  at: Date;
  events: Array<{ type: string } & Record<string, unknown>>;
}

export const OUTBOX_TTL_SECONDS = 24 * 60 * 60;

const outboxSchema = new Schema<OutboxDoc>(
  {
    origin: { type: String, required: true },
    at: { type: Date, required: true, index: { expireAfterSeconds: OUTBOX_TTL_SECONDS } },
    events: { type: Schema.Types.Mixed, required: true },
  },
  { versionKey: false },
);

export type OutboxModel = Model<OutboxDoc>;

/** The Outbox model on `connection` (each app binds its own: see src/models.ts). */
export function outboxModel(connection: Connection): OutboxModel {
  return connection.model<OutboxDoc>('Outbox', outboxSchema, 'outbox');
}

/**
 * Where each API process's change stream on the outbox stands (its last resume token), saved
 * every second or so, so that a process started again under the same name resumes where it
 * stopped instead of missing what was published meanwhile.
 */
export interface EventPositionDoc {
  /** The consumer: API_INSTANCE (default: host name and process slot). */
  _id: string;
  token: unknown;
  at: Date;
}

const eventPositionSchema = new Schema<EventPositionDoc>(
  {
    _id: { type: String, required: true },
    token: { type: Schema.Types.Mixed, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);

export type EventPositionModel = Model<EventPositionDoc>;

export function eventPositionModel(connection: Connection): EventPositionModel {
  return connection.model<EventPositionDoc>(
    'EventPosition',
    eventPositionSchema,
    'event_positions',
  );
}
