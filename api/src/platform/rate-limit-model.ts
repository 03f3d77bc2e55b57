import { Schema, type Connection, type Model } from 'mongoose';

/**
 * One fixed window of one limit for one key (a client address, an e-mail address, a member), in
 * the database so every API process counts into the same document. `_id` is
 * `<limit>:<window start>:<key>`; `expiresAt` (the window's end) is under a TTL index, so MongoDB
 * removes windows that are over.
 */
export interface RateLimitWindowDoc {
  _id: string;
  count: number;
  expiresAt: Date;
}

const rateLimitWindowSchema = new Schema<RateLimitWindowDoc>(
  {
    _id: { type: String, required: true },
    count: { type: Number, required: true },
    expiresAt: { type: Date, required: true, index: { expireAfterSeconds: 0 } },
  },
  { versionKey: false },
);

export type RateLimitWindowModel = Model<RateLimitWindowDoc>;

/** The model on `connection` (each app binds its own: see src/models.ts). */
export function rateLimitWindowModel(connection: Connection): RateLimitWindowModel {
  return connection.model<RateLimitWindowDoc>(
    'RateLimitWindow',
    rateLimitWindowSchema,
    'rate_limits',
  );
}
