import { model, Schema } from 'mongoose';

export interface CounterDoc {
  _id: string;
  seq: number;
}

const counterSchema = new Schema<CounterDoc>({ _id: String, seq: Number }, { versionKey: false });

export const Counter = model<CounterDoc>('Counter', counterSchema, 'counters');
