import { Schema, type Connection, type Model } from 'mongoose';

/** `blockerId` blocked `blockedId`: neither sees the other, neither can reach the other. */
export interface BlockDoc {
  _id: number;
  blockerId: number;
  blockedId: number;
  createdAt: Date;
}

/** `muterId` muted `mutedId` until `until` (null: forever): hidden from the muter only. */
export interface MuteDoc {
  _id: number;
  muterId: number;
  mutedId: number;
  until: Date | null;
  createdAt: Date;
}

/** A word or phrase `userId` muted until `until` (null: forever). */
export interface MutedWordDoc {
  _id: number;
  userId: number;
  /** As the member typed it (trimmed). */
  phrase: string;
  /** Folded as posts are matched: lower case, without diacritics, spaces collapsed. */
  folded: string;
  until: Date | null;
  createdAt: Date;
}

const blockSchema = new Schema<BlockDoc>(
  {
    _id: { type: Number, required: true },
    blockerId: { type: Number, required: true },
    blockedId: { type: Number, required: true },
    createdAt: { type: Date, default: () => new Date(), immutable: true },
  },
  { versionKey: false },
);
blockSchema.index({ blockerId: 1, blockedId: 1 }, { unique: true });
// Who blocked a member (their view hides the blockers too).
blockSchema.index({ blockedId: 1 });

const muteSchema = new Schema<MuteDoc>(
  {
    _id: { type: Number, required: true },
    muterId: { type: Number, required: true },
    mutedId: { type: Number, required: true },
    until: { type: Date, default: null },
    createdAt: { type: Date, default: () => new Date() },
  },
  { versionKey: false },
);
muteSchema.index({ muterId: 1, mutedId: 1 }, { unique: true });

const mutedWordSchema = new Schema<MutedWordDoc>(
  {
    _id: { type: Number, required: true },
    userId: { type: Number, required: true },
    phrase: { type: String, required: true },
    folded: { type: String, required: true },
    until: { type: Date, default: null },
    createdAt: { type: Date, default: () => new Date() },
  },
  { versionKey: false },
);
mutedWordSchema.index({ userId: 1, folded: 1 }, { unique: true });

export type BlockModel = Model<BlockDoc>;
export type MuteModel = Model<MuteDoc>;
export type MutedWordModel = Model<MutedWordDoc>;

/** The safety models on `connection` (each app binds its own: see src/models.ts). */
export function blockModel(connection: Connection): BlockModel {
  return connection.model<BlockDoc>('Block', blockSchema, 'blocks');
}
export function muteModel(connection: Connection): MuteModel {
  return connection.model<MuteDoc>('Mute', muteSchema, 'mutes');
}
export function mutedWordModel(connection: Connection): MutedWordModel {
  return connection.model<MutedWordDoc>('MutedWord', mutedWordSchema, 'mutedwords');
}

type SafetyModels = { Block: BlockModel; Mute: MuteModel; MutedWord: MutedWordModel };

/** This module's models from the app context: only the safety module reads them (lint). */
export const blocksOf = (ctx: { models: SafetyModels }): BlockModel => ctx.models.Block;
export const mutesOf = (ctx: { models: SafetyModels }): MuteModel => ctx.models.Mute;
export const mutedWordsOf = (ctx: { models: SafetyModels }): MutedWordModel => ctx.models.MutedWord;
