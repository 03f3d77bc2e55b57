import { Schema, type Connection, type Model } from 'mongoose';

export interface CounterDoc {
  _id: string;
  seq: number;
}

const counterSchema = new Schema<CounterDoc>({ _id: String, seq: Number }, { versionKey: false });

export type CounterModel = Model<CounterDoc>;

/** The Counter model on `connection` (each app binds its own: see src/models.ts). */
export function counterModel(connection: Connection): CounterModel {
  return connection.model<CounterDoc>('Counter', counterSchema, 'counters');
}

/** This module's Counter model from the app context: only the counters module reads it (lint). */
export const countersOf = (ctx: { models: { Counter: CounterModel } }): CounterModel =>
  ctx.models.Counter;
