import { Schema, type Connection, type Model } from 'mongoose';

/**
 * One open live stream, whichever API process holds it, so the limit of streams per member holds
 * across processes: opening one more deletes the member's oldest record, and the process holding
 * that stream hears `stream.superseded` and ends it. Each process refreshes its
 * streams' records with every heartbeat; the TTL index removes those of a process that died.
 */
export interface LiveStreamDoc {
  /** A random key the holding process knows its stream by. */
  _id: string;
  userId: number;
  openedAt: Date;
  expiresAt: Date;
}

const liveStreamSchema = new Schema<LiveStreamDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: Number, required: true },
    openedAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true, index: { expireAfterSeconds: 0 } },
  },
  { versionKey: false },
);
liveStreamSchema.index({ userId: 1, openedAt: -1 });

export type LiveStreamModel = Model<LiveStreamDoc>;

/** The LiveStream model on `connection` (each app binds its own: see src/models.ts). */
export function liveStreamModel(connection: Connection): LiveStreamModel {
  return connection.model<LiveStreamDoc>('LiveStream', liveStreamSchema, 'live_streams');
}

/** This module's LiveStream model from the app context: only the stream module reads it (lint). */
export const liveStreamsOf = (ctx: { models: { LiveStream: LiveStreamModel } }): LiveStreamModel =>
  ctx.models.LiveStream;
